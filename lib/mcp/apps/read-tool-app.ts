import type { McpSession } from "../mcp-session";
import { checkUiResource, type ToolAppOutcome, uiResourceUriOf } from "./ui-resource";

/** A tool as tools/list gave it, with what MCP Apps reads of it. */
export interface ListedAppTool {
  name: string;
  _meta?: Record<string, unknown>;
}

export interface ReadToolAppOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

const maxPages = 50;

/** The tool as the session's server lists it now, or undefined. */
export async function listedTool(session: McpSession, name: string, options: ReadToolAppOptions): Promise<ListedAppTool | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await session.listToolsLoosely(cursor, options);
    const found = result.tools.find((tool): tool is ListedAppTool => typeof tool === "object" && tool !== null && (tool as ListedAppTool).name === name);
    if (found) return found;
    cursor = result.nextCursor;
    if (!cursor) return undefined;
  }
  return undefined;
}

/**
 * The UI a tool declares, read through the session as the MCP Apps host:
 * null when the tool declares none (the view keeps the text content);
 * otherwise the checked HTML, or a fallback to text with the reason (a
 * resource that is not MCP App HTML, too large, or could not be read).
 */
export async function readToolApp(session: McpSession, toolName: string, options: ReadToolAppOptions): Promise<ToolAppOutcome | null> {
  const tool = await listedTool(session, toolName, options);
  const declared = uiResourceUriOf(tool);
  if (declared === null) return null;
  if ("error" in declared) return { kind: "text", uri: "", reason: declared.error };
  try {
    const { contents } = await session.readResource(declared.uri, options);
    return checkUiResource(declared.uri, contents, { maxBytes: options.maxBytes });
  } catch (error) {
    return { kind: "text", uri: declared.uri, reason: `the UI resource could not be read: ${(error as Error).message}` };
  }
}
