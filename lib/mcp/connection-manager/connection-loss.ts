import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * Whether a failed request failed because the connection itself is gone
 * (the server process died, the session was closed), not because of the
 * tool: then reconnecting and asking again can help.
 * - `Not connected`: the client had no transport any more; nothing was sent.
 * - McpError ConnectionClosed: the transport closed while the request waited.
 * - a socket or pipe error (EPIPE, ECONNRESET, ECONNREFUSED) anywhere in the causes.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return true;
  if (error instanceof SdkError && (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected)) return true;
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    const record = current as { message?: unknown; code?: unknown; cause?: unknown };
    if (record.message === "Not connected") return true;
    if (typeof record.code === "string" && lostCodes.has(record.code)) return true;
    current = record.cause;
  }
  return false;
}

const lostCodes = new Set(["EPIPE", "ECONNRESET", "ECONNREFUSED", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);
