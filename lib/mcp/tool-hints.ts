import type { ToolHints } from "../policy";

/**
 * A tool's hints as the MCP specification reads unset annotations: a tool not
 * marked read-only may be destructive (destructiveHint defaults to true), and
 * any tool may reach the open world (openWorldHint defaults to true). An
 * unannotated tool is therefore treated as destructive, and approval rules
 * ask before it runs.
 *
 * @example
 * protocolHints({}) // { readOnly: undefined, destructive: true, openWorld: true }
 * protocolHints({ readOnly: true }) // { readOnly: true, destructive: false, openWorld: true }
 */
export function protocolHints(declared: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean }): ToolHints {
  return { readOnly: declared.readOnly, destructive: declared.readOnly !== true && declared.destructive !== false, openWorld: declared.openWorld !== false };
}
