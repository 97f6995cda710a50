import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import type { McpHost, WorkflowEndpoint } from "./workflow-endpoint";
import { endpointErrorResponse } from "./workflow-endpoint-http";
import { ModernWorkflowEndpoints } from "./workflow-endpoint-modern";

/** A refusal to open a session, with what the host should be told (no such workflow, a broken document). */
export class EndpointRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface EndpointTarget {
  workflowId: string;
  /** Who the request's bearer token names (see ModernEndpointTarget.principal). */
  principal?: string;
  /**
   * Builds the endpoint of a new session (2025 era: the host is named by
   * `initialize`) or of one request (2026-07-28: the request names its
   * host); throws EndpointRefusal to refuse.
   */
  open(host?: McpHost): Promise<WorkflowEndpoint>;
}

export interface EndpointSessionsOptions {
  /** A session nobody used for this long, with no task running, is closed (default 30 min). */
  idleMs?: number;
  /** At most this many sessions at once; the least recently used idle one makes room (default 64). */
  maxSessions?: number;
}

interface Session {
  workflowId: string;
  transport: WebStandardStreamableHTTPServerTransport;
  endpoint: WorkflowEndpoint;
  lastUsed: number;
  /** Requests being answered right now. */
  active: number;
}

/** An initialize request is small; a bigger sessionless body is refused before it is parsed. */
const maxInitializeBytes = 1024 * 1024;

/**
 * The workflow endpoints over Streamable HTTP, both eras. 2026-07-28
 * requests go to ModernWorkflowEndpoints (stateless). 2025-era hosts get
 * MCP sessions (the
 * SDK's web-standard transport: a Request in, a Response out). Stateful:
 * `initialize` opens a session bound to one workflow, whose id the host
 * sends back in `Mcp-Session-Id`; the session keeps the host's name (for
 * the trace) and its tasks (for tasks/get and tasks/result). Answers are
 * plain JSON, and GET (a server-initiated event stream) is answered 405,
 * which the protocol allows: nothing here needs to reach a host unasked.
 * DELETE ends a session; an idle one ends by itself.
 */
export class WorkflowEndpointSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly modern = new ModernWorkflowEndpoints();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: EndpointSessionsOptions = {}) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 64;
  }

  /** Answers one HTTP request of either era: 2026-07-28 requests statelessly, 2025-era ones in their session. */
  async handle(request: Request, target: EndpointTarget): Promise<Response> {
    if (request.method === "POST" && !(await isLegacyRequest(request).catch(() => true))) {
      return this.modern.handle(request, { workflowId: target.workflowId, ...(target.principal ? { principal: target.principal } : {}), open: (host) => target.open(host) });
    }
    if (request.method === "GET") {
      return endpointErrorResponse(405, "This endpoint opens no server-sent event stream: every answer comes back on its POST.", { headers: { Allow: "POST, DELETE" } });
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) return this.continueSession(sessionId, request, target);
    if (request.method !== "POST") return endpointErrorResponse(400, "Bad Request: the Mcp-Session-Id header is required.");
    return this.openSession(request, target);
  }

  /** Closes every session (tests; a server shutting down). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
    await this.modern.closeAll();
  }

  get size(): number {
    return this.sessions.size;
  }

  private async continueSession(sessionId: string, request: Request, target: EndpointTarget): Promise<Response> {
    const session = this.sessions.get(sessionId);
    if (!session || session.workflowId !== target.workflowId) {
      return endpointErrorResponse(404, "Session not found: it ended, or belongs to another workflow. Start a new session (initialize).", { code: -32001 });
    }
    session.active += 1;
    session.lastUsed = Date.now();
    try {
      return await session.transport.handleRequest(request);
    } finally {
      session.active -= 1;
      session.lastUsed = Date.now();
    }
  }

  private async openSession(request: Request, target: EndpointTarget): Promise<Response> {
    const body = await readInitializeBody(request);
    if (body instanceof Response) return body;
    if (this.sessions.size >= this.maxSessions && !(await this.evictOne())) {
      return endpointErrorResponse(503, `Too many open MCP sessions (${this.maxSessions}); close one (DELETE) or try again later.`, { headers: { "Retry-After": "60" } });
    }
    const endpoint = await target.open();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      // Registered once the initialize request is accepted, under the id the host will send back.
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => this.close(id),
    });
    const session: Session = { workflowId: target.workflowId, endpoint, transport, lastUsed: Date.now(), active: 1 };
    try {
      await endpoint.server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      session.active -= 1;
      if (transport.sessionId === undefined) await endpoint.close();
      else this.sweepWhileOpen();
    }
  }

  private async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    if (this.sessions.size === 0) this.stopSweeping();
    try {
      await session.endpoint.close();
    } catch (error) {
      console.warn(`MCP session ${sessionId}: closing it failed: ${(error as Error).message}`);
    }
  }

  /** The least recently used session that is not answering or running anything. */
  private async evictOne(): Promise<boolean> {
    const idle = [...this.sessions.entries()].filter(([, session]) => session.active === 0 && !session.endpoint.busy()).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    if (!idle.length) return false;
    await this.close(idle[0][0]);
    return true;
  }

  private sweepWhileOpen(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1_000, this.idleMs / 2)));
    // The sweeper alone must not keep a process (a test, a script) alive.
    this.sweeper.unref?.();
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private async sweep(): Promise<void> {
    const cutoff = Date.now() - this.idleMs;
    const stale = [...this.sessions.entries()].filter(([, session]) => session.active === 0 && !session.endpoint.busy() && session.lastUsed < cutoff);
    await Promise.all(stale.map(([id]) => this.close(id)));
  }
}

/** A request without a session must be a lone `initialize`: anything else is refused before a session is built for it. */
async function readInitializeBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxInitializeBytes) return endpointErrorResponse(413, "The initialize request is too large.");
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > maxInitializeBytes) return endpointErrorResponse(413, "The initialize request is too large.");
    body = JSON.parse(text);
  } catch {
    return endpointErrorResponse(400, "Parse error: the body is not valid JSON.", { code: -32700 });
  }
  if (!isInitializeRequest(body)) {
    return endpointErrorResponse(400, "Bad Request: no session. Send `initialize` first, then the Mcp-Session-Id header it answers with on every request.");
  }
  return body;
}
