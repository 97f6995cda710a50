import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ServerEntry } from "./registry";

/**
 * A server that could not be reached or did not answer, in words a person
 * can act on. The world is at fault (a process that will not start, a host
 * that refuses), except for `refused`, which is this machine's rules.
 */
export class EntryConnectionError extends Error {
  override name = "EntryConnectionError";
  constructor(
    readonly code: "connection-refused-by-policy" | "connection-failed" | "connection-timeout" | "secret-missing" | "protocol-unsupported" | "oauth-reconnect-needed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The Node error codes anywhere in a cause chain (`ECONNREFUSED`, `ENOENT`…). */
function causeCodes(error: unknown): { codes: string[]; names: string[] } {
  const codes: string[] = [];
  const names: string[] = [];
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (typeof current !== "object") break;
    const record = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof record.code === "string") codes.push(record.code);
    if (typeof record.name === "string") names.push(record.name);
    current = record.cause;
  }
  return { codes, names };
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").map((line) => line.trim()).filter(Boolean)[0] ?? "unknown error";
}

/** Why connecting to or talking with an entry's server failed, as one sentence. */
export function describeConnectionFailure(error: unknown, context: { entry: ServerEntry; stderr: string; phase: "connect" | "list tools" }): EntryConnectionError {
  if (error instanceof EntryConnectionError) return error;
  const { entry, stderr } = context;
  const { codes, names } = causeCodes(error);
  const where = entry.transport === "stdio" ? `'${entry.command}'` : new URL(entry.url).host;
  const tail = stderr ? `; it printed: ${stderr}` : "";
  // OAuth's own failures are already one line in words (lib/mcp/oauth).
  const oauth = oauthFailureIn(error);
  if (oauth?.name === "OAuthReconnectNeeded") return new EntryConnectionError("oauth-reconnect-needed", oauth.message, { cause: error });
  if (oauth) return new EntryConnectionError(oauth.message.includes("URL guard") ? "connection-refused-by-policy" : "connection-failed", oauth.message, { cause: error });
  if (names.includes("UrlRefusedError") || codes.includes("url-refused")) {
    return new EntryConnectionError("connection-refused-by-policy", `refused by the URL guard: ${messageOf(error)}`, { cause: error });
  }
  const unsupported = unsupportedRevision(error);
  if (unsupported) {
    return new EntryConnectionError("protocol-unsupported", `${where} speaks no MCP revision Switchboard knows (${knownRevisions}): ${unsupported}`, { cause: error });
  }
  if ((error instanceof McpError && error.code === ErrorCode.RequestTimeout) || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)) {
    return new EntryConnectionError("connection-timeout", `${where} did not answer within ${entry.timeoutMs} ms (${context.phase})${tail}`, { cause: error });
  }
  if (entry.transport === "stdio" && codes.includes("ENOENT")) {
    return new EntryConnectionError("connection-failed", `could not start ${where}: it is not installed or not on the PATH`, { cause: error });
  }
  if (entry.transport === "stdio" && (error instanceof McpError ? error.code === ErrorCode.ConnectionClosed : /closed/i.test(messageOf(error)))) {
    return new EntryConnectionError("connection-failed", `the server process ended before answering${tail || " (it printed nothing)"}`, { cause: error });
  }
  if (codes.includes("ECONNREFUSED")) return new EntryConnectionError("connection-failed", `nothing is listening at ${where} (connection refused)`, { cause: error });
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN")) return new EntryConnectionError("connection-failed", `${where} does not resolve`, { cause: error });
  if (codes.includes("ECONNRESET")) return new EntryConnectionError("connection-failed", `${where} closed the connection`, { cause: error });
  if (codes.some((code) => code.startsWith("ERR_TLS") || code.includes("CERT"))) {
    return new EntryConnectionError("connection-failed", `the TLS connection to ${where} failed: ${messageOf(error)}`, { cause: error });
  }
  return new EntryConnectionError("connection-failed", `${where} failed to ${context.phase}: ${messageOf(error)}${tail}`, { cause: error });
}

function oauthFailureIn(error: unknown): Error | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    if (["OAuthReconnectNeeded", "OAuthFlowError", "AuthorizationCallbackError"].includes(current.name)) return current;
    current = current.cause;
  }
  return null;
}

/** The revisions the client offers: the current one first, then the 2025 line it falls back to. */
const knownRevisions = "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05";

/**
 * Why the server's answer means it speaks no revision we know, or null: it
 * refused the versions offered (-32022 Unsupported protocol version, or an
 * `initialize` answered with a revision we do not speak), or the era
 * negotiation ended without a usable era for a reason other than the network.
 */
function unsupportedRevision(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    if (current instanceof ProtocolError && current.code === -32022) return messageOf(current);
    if (current instanceof McpError && current.code === -32022) return messageOf(current).replace(/^MCP error -?\d+: /, "");
    const message = messageOf(current);
    if (/server's protocol version is not supported|Unsupported protocol version/i.test(message)) return message;
    if (current instanceof SdkError && current.code === SdkErrorCode.EraNegotiationFailed && /not supported|unsupported|no (mutually )?supported|no common/i.test(message)) return message;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
