import type { McpSession } from "../mcp-session";
import { type Tool, ToolSchema } from "@modelcontextprotocol/sdk/types.js";

/** One tool a server offers, as the manager keeps it. */
export interface ManifestTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** `execution.taskSupport: "required"`: called as an MCP task. */
  taskRequired: boolean;
  /** What the server says of the tool (MCP annotations): hints, never guarantees, used by approval rules and resume. */
  hints: { readOnly?: boolean; destructive?: boolean; idempotent?: boolean; openWorld?: boolean };
}

/** A tool the server listed that cannot be offered, and why; `tool` is null when the entry has no usable name. */
export interface ListedToolProblem {
  tool: string | null;
  message: string;
}

export interface ToolManifest {
  tools: ManifestTool[];
  /** Tools skipped, each with its reason: one bad tool never hides the others. */
  problems: ListedToolProblem[];
}

export interface ReadManifestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

const maxPages = 50;

/** A tools/list page read without judging its tools, so each can be judged alone. */

/**
 * Every tool a connected server lists (following pagination), each checked
 * on its own. The SDK's `listTools` refuses a whole page when one tool in
 * it is malformed (an input schema whose type is not "object", say), which
 * would hide every good tool of the server; so when it does, the pages are
 * read again loosely and each tool is checked against the protocol's tool
 * schema alone, keeping the good ones and naming the bad ones. (The fast
 * path keeps the SDK's own output-schema checks on calls; the loose path
 * does without them.)
 */
export async function readToolManifest(client: McpSession, options: ReadManifestOptions): Promise<ToolManifest> {
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = await client.listTools(cursor, options);
      tools.push(...(result.tools as Tool[]));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return judge(tools);
  } catch (error) {
    if (!isMalformedAnswer(error)) throw error;
    return judge(await readLoosely(client, options));
  }
}

async function readLoosely(client: McpSession, options: ReadManifestOptions): Promise<unknown[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listToolsLoosely(cursor, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** Keeps each tool that passes the protocol's schema (once per name); names the rest. */
function judge(listed: readonly unknown[]): ToolManifest {
  const tools: ManifestTool[] = [];
  const problems: ListedToolProblem[] = [];
  const seen = new Set<string>();
  for (const raw of listed) {
    const name = nameOf(raw);
    const parsed = ToolSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push({ tool: name, message: `${name ? `the tool '${name}'` : "a tool"} is listed with an invalid definition (${issueText(parsed.error.issues)}); it is left out` });
      continue;
    }
    const tool = parsed.data;
    if (seen.has(tool.name)) {
      problems.push({ tool: tool.name, message: `the tool '${tool.name}' is listed twice; only the first is offered` });
      continue;
    }
    seen.add(tool.name);
    tools.push({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
      taskRequired: tool.execution?.taskSupport === "required",
      hints: {
        readOnly: tool.annotations?.readOnlyHint,
        destructive: tool.annotations?.destructiveHint,
        idempotent: tool.annotations?.idempotentHint,
        openWorld: tool.annotations?.openWorldHint,
      },
    });
  }
  return { tools, problems };
}

function nameOf(raw: unknown): string | null {
  const name = typeof raw === "object" && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" && name !== "" ? name.slice(0, 200) : null;
}

function issueText(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? `${issue.path.map(String).join(".")}: ` : ""}${issue.message}`)
    .join("; ");
}

/** The answer arrived but did not pass the SDK's result schema (a zod error), as opposed to a failed request. */
function isMalformedAnswer(error: unknown): boolean {
  return typeof error === "object" && error !== null && Array.isArray((error as { issues?: unknown }).issues);
}
