import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * A protocol error the endpoint answers with (a JSON-RPC error: code,
 * message, data). Not an McpError: that one puts "MCP error n:" into its
 * message, which would go on the wire, and the host's SDK adds its own
 * prefix again ("MCP error -32602: MCP error -32602: …").
 */
export class EndpointProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "EndpointProtocolError";
  }
}

/**
 * An error from an in-process session, passed on to the host: a protocol
 * error keeps its code, message and data (without the SDK's "MCP error n:"
 * prefixes, which each hop adds); anything else is our fault, said in one
 * line, never with a stack.
 */
export function forwardedError(error: unknown, what: string): EndpointProtocolError {
  if (error instanceof EndpointProtocolError) return error;
  if (error instanceof McpError) return new EndpointProtocolError(error.code, error.message.replace(/^(MCP error -?\d+: )+/, ""), error.data);
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new EndpointProtocolError(ErrorCode.InternalError, `${what} failed on the server${reason ? `: ${reason}` : ""}`);
}
