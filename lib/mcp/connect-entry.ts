import { type OAuthClientProvider, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { guardedWebFetch, UrlRefusedError } from "../security";
import { redactSecrets } from "../trace";
import { readToolManifest } from "./connection-manager/tool-manifest";
import { describeConnectionFailure, EntryConnectionError } from "./connection-failure";
import { type McpSession, sessionOfClient } from "./mcp-session";
import { ProcessGroupStdioTransport } from "./process-group-transport";
import { questioningClient } from "./session-questions";
import { httpTaskDispatch } from "./http-task-dispatch";
import { serverOAuthFetch, type ServerOAuthFetchOptions } from "./oauth/oauth-fetch";
import type { RegistryOAuthProvider } from "./oauth/registry-oauth-provider";
import { entryOAuth } from "./oauth/entry-oauth";
import type { OAuthStateStore } from "./oauth/oauth-state";
import { fillSecretRecord, MissingSecretError, parseServerEntry, serverPolicyFromEnvironment, stdioCatalogueOf, type ServerEntry, type ServerPolicy } from "./registry";
import { cataloguedCommand, ConfinementUnavailableError } from "./stdio-catalogue";

export { EntryConnectionError } from "./connection-failure";

export interface ConnectEntryOptions {
  /** Values for the entry's `{{ secrets.NAME }}` references (from ServerRegistry.resolve). */
  secretValues?: Readonly<Record<string, string>>;
  /** The machine's policy (default: from the environment). */
  policy?: ServerPolicy;
  signal?: AbortSignal;
  /** Called with each secret value put into the connection, so the caller can redact it from traces. */
  onSecret?: (value: string) => void;
  /** A non-interactive OAuth grant for an http/sse server (client credentials: the SDK's providers), over the guarded fetch. */
  authProvider?: OAuthClientProvider;
  /** OAuth with a person's authorization (lib/mcp/oauth): tokens sent, refreshed and, where someone can consent, obtained. */
  oauth?: { provider: RegistryOAuthProvider; consent?: ServerOAuthFetchOptions["consent"] };
  /**
   * Where OAuth entries keep their tokens (the database in the app): an
   * entry with `oauth` then gets its client (stored tokens, refreshed when
   * they expire; client credentials) unless `oauth` or `authProvider` is given.
   */
  oauthStore?: OAuthStateStore;
  /** Declare elicitation (form and URL) and route the server's questions to the call in flight: only where a person can answer them. */
  answersQuestions?: boolean;
}

export interface EntryConnection {
  /** The session, whichever protocol revision the server speaks. */
  client: McpSession;
  /** The process group of a stdio server (its first process's pid): closing ends every process in it. */
  pgid?: number;
  /** The last lines the server printed on stderr (stdio servers), secrets redacted. */
  stderr(): string;
  close(): Promise<void>;
}

/** A tool as a server lists it. */
export interface EntryTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  taskSupport?: string;
  /** Set when the server lists the tool but its definition cannot be offered: why. */
  problem?: string;
}

export type ConnectionReport =
  | { ok: true; serverName: string | null; serverVersion: string | null; protocolVersion: string | null; toolCount: number; durationMs: number }
  | { ok: false; error: string; code: EntryConnectionError["code"]; durationMs: number };

const clientInfo = { name: "switchboard", version: "0.1.0" };
const stderrLimit = 2000;

/**
 * Connects an MCP client to a registry entry. stdio servers get a minimal
 * environment (PATH and HOME, plus the SDK's own few defaults) and the
 * entry's env, never the app's; http and sse requests go through the URL
 * guard on every request and redirect. Failures come back as an
 * EntryConnectionError in words; the caller closes the connection.
 */
export async function connectEntry(entry: ServerEntry, given: ConnectEntryOptions = {}): Promise<EntryConnection> {
  const options = await withEntryOAuth(entry, given);
  const policy = options.policy ?? serverPolicyFromEnvironment();
  if (entry.transport === "stdio" && policy.stdioDisabled) {
    throw new EntryConnectionError("connection-refused-by-policy", "stdio servers are switched off on this machine (SWITCHBOARD_STDIO_DISABLED=true)");
  }
  // Whatever path the entry came by (registry, CLI, import, a caller's own object), it starts nothing the schema refuses.
  const verdict = parseServerEntry(entry);
  if (!verdict.ok) throw new EntryConnectionError("connection-refused-by-policy", `the entry is refused (${verdict.problem.field || "entry"}: ${verdict.problem.message})`);
  const secrets = Object.values(options.secretValues ?? {});
  let stderr = "";
  const redacted = () => redactSecrets(stderrSummary(stderr), secrets);
  // The SSE transport's EventSource reports a failed fetch without its cause: keep the guard's refusal here.
  const refusals: unknown[] = [];
  let made: MadeTransport;
  try {
    made = createTransport(entry, options, policy, {
      onStderr: (chunk) => (stderr = (stderr + chunk).slice(-stderrLimit)),
      onRefusal: (error) => refusals.push(error),
    });
  } catch (error) {
    if (error instanceof MissingSecretError) throw new EntryConnectionError("secret-missing", error.message, { cause: error });
    if (error instanceof ConfinementUnavailableError || error instanceof StdioRefusedError) throw new EntryConnectionError("connection-refused-by-policy", error.message, { cause: error });
    throw error;
  }
  for (const value of secrets) options.onSecret?.(value);
  const { transport } = made;
  // Modern first (server/discover), the 2025 handshake when the server does not know it; SSE servers predate the current revision.
  const { client, questions } = questioningClient(clientInfo, { versionNegotiation: { mode: entry.transport === "sse" ? "legacy" : "auto", probe: { timeoutMs: Math.min(entry.timeoutMs, probeTimeoutMs) } } }, options.answersQuestions);
  try {
    await client.connect(transport, { timeout: entry.timeoutMs, signal: options.signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw redactError(describeConnectionFailure(refusals[0] ?? error, { entry, stderr: redacted(), phase: "connect" }), secrets);
  }
  const session = sessionOfClient(client, { endpointId: entry.id, clientInfo, rawDispatch: made.rawDispatch, questions });
  const pgid = transport instanceof ProcessGroupStdioTransport ? transport.pgid : undefined;
  return { client: session, pgid, stderr: redacted, close: () => session.close() };
}

async function withEntryOAuth(entry: ServerEntry, options: ConnectEntryOptions): Promise<ConnectEntryOptions> {
  if (!options.oauthStore || options.oauth || options.authProvider) return options;
  const made = await entryOAuth(entry, options.secretValues ?? {}, { store: options.oauthStore, onSecret: options.onSecret });
  if (made.kind === "authorization-code") return { ...options, oauth: { provider: made.provider } };
  if (made.kind === "client-credentials") return { ...options, authProvider: made.authProvider };
  return options;
}

/** How long a stdio server may stay silent on `server/discover` before it is taken for a 2025-era server. */
const probeTimeoutMs = 10_000;

interface MadeTransport {
  transport: Transport;
  /** The raw request path 2026-07-28 task calls need (HTTP servers only). */
  rawDispatch?: Parameters<typeof sessionOfClient>[1]["rawDispatch"];
}

interface TransportHooks {
  onStderr(chunk: string): void;
  onRefusal(error: unknown): void;
}

function createTransport(entry: ServerEntry, options: ConnectEntryOptions, policy: ServerPolicy, hooks: TransportHooks): MadeTransport {
  const values = options.secretValues ?? {};
  if (entry.transport === "stdio") {
    // Only what the stdio catalogue allows starts, whatever path the entry came by; and only the variables it declares reach the process.
    const allowed = cataloguedCommand(entry, fillSecretRecord(entry.env, values), stdioCatalogueOf(policy));
    if (!allowed.ok) throw new StdioRefusedError(`the stdio command is refused: ${allowed.reason}`);
    const base: Record<string, string> = {};
    for (const name of ["PATH", "HOME"]) if (process.env[name]) base[name] = process.env[name]!;
    // Its own process group: closing the connection ends whatever the command started (npx's real server too).
    const transport = new ProcessGroupStdioTransport({ command: allowed.command, baseEnv: { ...getDefaultEnvironment(), ...base } });
    transport.stderr.on("data", (chunk: Buffer) => hooks.onStderr(chunk.toString("utf8")));
    return { transport };
  }
  const headers = fillSecretRecord(entry.headers, values);
  // Every configured header may carry a secret: none is sent on to another origin by a redirect.
  const guarded = guardedWebFetch({ allowedOrigins: policy.allowedPrivateOrigins, sensitiveHeaders: [...Object.keys(headers), ...(options.oauth ? ["Authorization"] : [])] });
  const plain: typeof guarded = (url, init) =>
    guarded(url, init).catch((error: unknown) => {
      if (error instanceof UrlRefusedError) hooks.onRefusal(error);
      throw error;
    });
  // Metadata discovery, registration and token requests go through the same guard: every OAuth URL is checked.
  const fetch = options.oauth ? (serverOAuthFetch(options.oauth.provider, plain, { serverUrl: entry.url, consent: options.oauth.consent }) as typeof guarded) : plain;
  const url = new URL(entry.url);
  const { authProvider } = options;
  if (entry.transport === "sse") return { transport: new SSEClientTransport(url, { fetch, authProvider, requestInit: { headers }, redirectPolicy: "follow" }) };
  return { transport: new StreamableHTTPClientTransport(url, { fetch, authProvider, requestInit: { headers }, redirectPolicy: "follow" }), rawDispatch: httpTaskDispatch(url, { fetch, headers }) };
}

/** A stdio command line the stdio catalogue does not allow (caught where the transport is made). */
class StdioRefusedError extends Error {}

/** Every tool the connected server lists (following pagination). */
export async function listConnectedTools(connection: EntryConnection, entry: ServerEntry, signal?: AbortSignal): Promise<EntryTool[]> {
  // Each tool is judged on its own: one malformed definition is listed with its problem and hides no other.
  const manifest = await readToolManifest(connection.client, { timeoutMs: entry.timeoutMs, signal });
  return [
    ...manifest.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.taskRequired ? { taskSupport: "required" } : {}),
    })),
    ...manifest.problems.map((problem) => ({ name: problem.tool ?? "(a tool with no usable name)", description: "", inputSchema: {}, problem: problem.message })),
  ];
}

/** Connects, lists the tools and closes. Throws EntryConnectionError. */
export async function listEntryTools(entry: ServerEntry, options: ConnectEntryOptions = {}): Promise<EntryTool[]> {
  const connection = await connectEntry(entry, options);
  try {
    return await listConnectedTools(connection, entry, options.signal);
  } catch (error) {
    throw redactError(describeConnectionFailure(error, { entry, stderr: connection.stderr(), phase: "list tools" }), Object.values(options.secretValues ?? {}));
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** "Test connection": connect, list the tools, close; never throws for the server's failures. */
export async function testEntryConnection(entry: ServerEntry, options: ConnectEntryOptions = {}): Promise<ConnectionReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let connection: EntryConnection;
  try {
    connection = await connectEntry(entry, options);
  } catch (error) {
    if (!(error instanceof EntryConnectionError)) throw error;
    return { ok: false, error: error.message, code: error.code, durationMs: elapsed() };
  }
  try {
    const tools = await listConnectedTools(connection, entry, options.signal);
    const server = connection.client.serverVersion();
    return { ok: true, serverName: server?.name ?? null, serverVersion: server?.version ?? null, protocolVersion: connection.client.protocolVersion ?? null, toolCount: tools.length, durationMs: elapsed() };
  } catch (error) {
    const failure = redactError(describeConnectionFailure(error, { entry, stderr: connection.stderr(), phase: "list tools" }), Object.values(options.secretValues ?? {}));
    return { ok: false, error: failure.message, code: failure.code, durationMs: elapsed() };
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** What a server printed, shortened to what explains a failure: its first error line, else its last lines. */
export function stderrSummary(text: string): string {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  // Python ends a traceback with the exception; Node starts with it.
  const errorLine = lines.some((line) => line.startsWith("Traceback")) ? lines.at(-1) : lines.find((line) => /^([A-Za-z]*Error\b|error:|fatal:)/i.test(line));
  return (errorLine ?? lines.slice(-3).join(" | ")).slice(0, 500);
}

function redactError(error: EntryConnectionError, secrets: readonly string[]): EntryConnectionError {
  const message = redactSecrets(error.message, secrets);
  return message === error.message ? error : new EntryConnectionError(error.code, message, { cause: error.cause });
}
