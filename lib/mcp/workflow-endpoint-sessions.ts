import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { type EndpointSessionStore, ownerTaskScope, sessionTaskScope, type StoredEndpointSession } from "./endpoint-session-store";
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
  /** The person whose token the request carries (`environment` for SWITCHBOARD_MCP_TOKEN): a session is theirs alone. */
  ownerId: string;
  /**
   * Builds the endpoint of a session (2025 era: the host is named by
   * `initialize`) or of one request (2026-07-28: the request names its
   * host), its tasks kept under `taskScope` (see lib/db/mcp-endpoint-store.ts);
   * throws EndpointRefusal to refuse.
   */
  open(host: McpHost | undefined, taskScope: string): Promise<WorkflowEndpoint>;
}

export interface EndpointSessionsOptions {
  /** Where the sessions are kept: the database, so that every web process answers every session. */
  store: EndpointSessionStore;
  /** A session nobody used for this long, with no task working, is closed (default 30 min; SWITCHBOARD_MCP_SESSION_IDLE_MINUTES in the app). */
  idleMs?: number;
  /** A closed session's record (and its tasks) is deleted this long after it closed (default 1 day). */
  forgetMs?: number;
  /** At most this many sessions cached in this process; the least recently used idle one makes room (default 64). */
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

const sessionNotFound = "Session not found: it ended, expired, or belongs to another workflow. Start a new session (initialize).";

/**
 * The workflow endpoints over Streamable HTTP, both eras. 2026-07-28
 * requests go to ModernWorkflowEndpoints (stateless). 2025-era hosts get
 * MCP sessions (the SDK's web-standard transport: a Request in, a Response
 * out): `initialize` opens a session bound to one workflow and one person,
 * whose id the host sends back in `Mcp-Session-Id`. The session is a
 * record in the database (`store`): what `initialize` negotiated (protocol
 * version, the host's name and capabilities), its owner, when it was last
 * used, and whether it is closed. Any process that gets a request with a
 * known id rebuilds the session's endpoint from that record (it replays
 * the `initialize` to a fresh server) and keeps it in a cache of its own;
 * the record stays the truth: it is read on every request, so a session
 * closed by one process (DELETE, the idle sweep) is refused by all. Its
 * tasks are in the database too (PrismaTaskStore), so tasks/get,
 * tasks/result, tasks/list and tasks/cancel work on any process.
 * Answers are plain JSON, and GET (a server-initiated event stream) is
 * answered 405, which the protocol allows.
 */
export class WorkflowEndpointSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly restoring = new Map<string, Promise<Session>>();
  private readonly modern = new ModernWorkflowEndpoints();
  private readonly store: EndpointSessionStore;
  private readonly idleMs: number;
  private readonly forgetMs: number;
  private readonly maxSessions: number;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: EndpointSessionsOptions) {
    this.store = options.store;
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.forgetMs = options.forgetMs ?? 24 * 60 * 60_000;
    this.maxSessions = options.maxSessions ?? 64;
  }

  /** Answers one HTTP request of either era: 2026-07-28 requests statelessly, 2025-era ones in their session. */
  async handle(request: Request, target: EndpointTarget): Promise<Response> {
    this.sweepWhileRunning();
    if (request.method === "POST" && !(await isLegacyRequest(request).catch(() => true))) {
      const scope = ownerTaskScope(target.ownerId, target.workflowId);
      return this.modern.handle(request, { workflowId: target.workflowId, taskScope: scope, ...(target.principal ? { principal: target.principal } : {}), open: (host) => target.open(host, scope) });
    }
    if (request.method === "GET") {
      return endpointErrorResponse(405, "This endpoint opens no server-sent event stream: every answer comes back on its POST.", { headers: { Allow: "POST, DELETE" } });
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) return this.continueSession(sessionId, request, target);
    if (request.method !== "POST") return endpointErrorResponse(400, "Bad Request: the Mcp-Session-Id header is required.");
    return this.openSession(request, target);
  }

  /** Closes this process's copies of the sessions (tests; a server shutting down): their records stay, and other processes go on serving them. */
  async closeAll(): Promise<void> {
    this.stopSweeping();
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
    await this.modern.closeAll();
  }

  /** How many sessions this process has cached. */
  get size(): number {
    return this.sessions.size;
  }

  private async continueSession(sessionId: string, request: Request, target: EndpointTarget): Promise<Response> {
    const record = await this.store.find(sessionId);
    // A session id sent to another workflow's URL is not that workflow's session: answered 404, the session itself untouched.
    if (record && !record.closedAt && record.workflowId !== target.workflowId) return endpointErrorResponse(404, sessionNotFound, { code: -32001 });
    if (!record || record.closedAt) {
      await this.drop(sessionId);
      return endpointErrorResponse(404, sessionNotFound, { code: -32001 });
    }
    if (record.ownerId !== target.ownerId) {
      return endpointErrorResponse(403, "This MCP session was opened with another person's token: only the tokens of the person who opened it continue it. Start a new session (initialize) with your own.", { code: -32001 });
    }
    const cached = this.sessions.get(sessionId);
    if (record.lastSeenAt.getTime() < Date.now() - this.idleMs && !cached?.active && !cached?.endpoint.busy() && !(await this.store.hasWorkingTask(sessionId))) {
      await this.store.close(sessionId);
      await this.drop(sessionId);
      return endpointErrorResponse(404, sessionNotFound, { code: -32001 });
    }
    const session = cached ?? (await this.restore(record, target));
    session.active += 1;
    session.lastUsed = Date.now();
    try {
      // One write a second at most: a burst of requests does not write the row each time.
      if (Date.now() - record.lastSeenAt.getTime() >= 1_000) await this.store.touch(sessionId);
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
      return endpointErrorResponse(503, `Too many open MCP sessions in this process (${this.maxSessions}); close one (DELETE) or try again later.`, { headers: { "Retry-After": "60" } });
    }
    const sessionId = randomUUID();
    const endpoint = await target.open(undefined, sessionTaskScope(sessionId));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      enableJsonResponse: true,
      // Cached once the initialize request is accepted, under the id the host will send back.
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => this.end(id),
    });
    const session: Session = { workflowId: target.workflowId, endpoint, transport, lastUsed: Date.now(), active: 1 };
    const params = (body as { params: { protocolVersion: string; capabilities?: Record<string, unknown>; clientInfo: StoredEndpointSession["clientInfo"] } }).params;
    try {
      // Stored before the host hears the id: its next request may reach another process.
      await this.store.create({
        id: sessionId,
        workflowId: target.workflowId,
        ownerId: target.ownerId,
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION,
        clientInfo: params.clientInfo,
        capabilities: params.capabilities ?? {},
      });
      await endpoint.server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      session.active -= 1;
      if (transport.sessionId === undefined) {
        await endpoint.close();
        await this.store.close(sessionId).catch(() => undefined);
      }
    }
  }

  /** A session another process opened (or this one dropped from its cache), rebuilt from its record: the stored `initialize` replayed to a fresh server. */
  private restore(record: StoredEndpointSession, target: EndpointTarget): Promise<Session> {
    const pending = this.restoring.get(record.id);
    if (pending) return pending;
    const restoring = this.rebuild(record, target).finally(() => this.restoring.delete(record.id));
    this.restoring.set(record.id, restoring);
    return restoring;
  }

  private async rebuild(record: StoredEndpointSession, target: EndpointTarget): Promise<Session> {
    if (this.sessions.size >= this.maxSessions) await this.evictOne();
    const endpoint = await target.open(undefined, sessionTaskScope(record.id));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => record.id, enableJsonResponse: true, onsessionclosed: (id) => this.end(id) });
    const session: Session = { workflowId: record.workflowId, endpoint, transport, lastUsed: Date.now(), active: 0 };
    const replay = (message: Record<string, unknown>, headers: Record<string, string> = {}) =>
      transport.handleRequest(
        new Request("http://localhost/restore", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", ...message }) }),
      );
    try {
      await endpoint.server.connect(transport);
      const answer = await replay({ id: "restore", method: "initialize", params: { protocolVersion: record.protocolVersion, capabilities: record.capabilities, clientInfo: record.clientInfo } });
      if (!answer.ok) throw new Error(`replaying its initialize was answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
      await replay({ method: "notifications/initialized" }, { "Mcp-Session-Id": record.id, "Mcp-Protocol-Version": record.protocolVersion });
    } catch (error) {
      await endpoint.close().catch(() => undefined);
      throw new Error(`MCP session ${record.id} could not be rebuilt from its record: ${(error as Error).message}`);
    }
    this.sessions.set(record.id, session);
    return session;
  }

  /** DELETE: the session ends for every process (its record closed, its working tasks cancelled), and this process's copy closes. */
  private async end(sessionId: string): Promise<void> {
    await this.store.close(sessionId);
    await this.drop(sessionId);
  }

  /** Closes this process's copy of a session (it stops following its tasks; their runs go on in the workers); the record is not changed. */
  private async drop(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    try {
      await session.endpoint.close();
    } catch (error) {
      console.warn(`MCP session ${sessionId}: closing it failed: ${(error as Error).message}`);
    }
  }

  /** The least recently used cached session that is not answering or running anything: dropped from the cache only (another request rebuilds it). */
  private async evictOne(): Promise<boolean> {
    const idle = [...this.sessions.entries()].filter(([, session]) => session.active === 0 && !session.endpoint.busy()).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    if (!idle.length) return false;
    await this.drop(idle[0][0]);
    return true;
  }

  private sweepWhileRunning(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep().catch((error: unknown) => console.warn(`MCP sessions: the idle sweep failed: ${(error as Error).message}`)), Math.min(60_000, Math.max(1_000, this.idleMs / 2)));
    // The sweeper alone must not keep a process (a test, a script) alive.
    this.sweeper.unref?.();
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Closes idle sessions in the database (any process may), then drops the cached copies whose records are closed, wherever that happened. */
  async sweep(now = Date.now()): Promise<void> {
    await this.store.sweep(new Date(now - this.idleMs), new Date(now - this.forgetMs));
    for (const [id, session] of [...this.sessions.entries()]) {
      if (session.active > 0) continue;
      const record = await this.store.find(id);
      if (!record || record.closedAt) await this.drop(id);
      else if (!session.endpoint.busy() && session.lastUsed < now - this.idleMs) await this.drop(id);
    }
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
