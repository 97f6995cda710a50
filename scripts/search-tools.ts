/**
 * npx tsx scripts/search-tools.ts --tools FILE.json --query TEXT [--k 5] [--json]
 * Shows which tools an agent's `search_tools` would find for a job, so a
 * node author can check that theirs is found. FILE holds an array of
 * {server, name, description, inputSchema}. Prints one line per tool
 * (rank, score, server/name, description), or with --json
 * [{server, name, score, description, inputSchema}]. Bad input: one line
 * on stderr naming the problem, exit 2.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createToolIndex, defaultResultCount, parseSearchableTools, ToolSearchError, type ToolMatch } from "../lib/tools";

const usage = "usage: search-tools --tools FILE.json --query TEXT [--k 5] [--json]";

/** A problem with the command line or its input: printed as one line, exit 2. */
class UsageError extends Error {}

interface SearchRequest {
  toolsFile: string;
  query: string;
  k: number;
  json: boolean;
}

function parseRequest(argv: string[]): SearchRequest {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { tools: { type: "string" }, query: { type: "string" }, k: { type: "string" }, json: { type: "boolean", default: false } },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (${usage})`);
  }
  const { tools, query, k, json } = parsed.values;
  if (!tools) throw new UsageError(`--tools FILE.json is required (${usage})`);
  if (query === undefined) throw new UsageError(`--query TEXT is required (${usage})`);
  const count = k === undefined ? defaultResultCount : Number(k);
  if (!Number.isInteger(count) || count < 1) throw new UsageError(`--k must be a whole number of at least 1, got ${JSON.stringify(k)}`);
  return { toolsFile: tools, query, k: count, json: json ?? false };
}

function readTools(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `${file}: no such file` : `${file}: cannot be read (${code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

function formatText(matches: ToolMatch[]): string {
  if (matches.length === 0) return "no tool matches this query";
  return matches
    .map(({ tool, score }, rank) => `${String(rank + 1).padStart(2)}. ${score.toFixed(3).padStart(7)}  ${tool.server}/${tool.name}\n             ${tool.description}`)
    .join("\n");
}

function formatJson(matches: ToolMatch[]): string {
  const rows = matches.map(({ tool, score }) => ({
    server: tool.server,
    name: tool.name,
    score: Number(score.toFixed(4)),
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  return JSON.stringify(rows, null, 2);
}

/** Where the command writes: standard output and error unless a caller (a test, a router) passes its own. */
export interface CommandOutput {
  out: (text: string) => void;
  error: (text: string) => void;
}

const processOutput: CommandOutput = { out: (text) => console.log(text), error: (text) => console.error(text) };

/**
 * Runs the command on its arguments (without the program name) and returns
 * the exit code: 0 found or not, 2 bad arguments or input, 1 a bug of ours.
 * Tests call it with their own output.
 */
export function searchToolsCommand(argv: string[], output: CommandOutput = processOutput): number {
  try {
    const request = parseRequest(argv);
    const tools = parseSearchableTools(readTools(request.toolsFile), request.toolsFile);
    const matches = createToolIndex(tools).search(request.query, request.k);
    output.out(request.json ? formatJson(matches) : formatText(matches));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolSearchError) {
      output.error(`search-tools: ${error.message}`);
      return 2;
    }
    output.error(`search-tools: internal error: ${(error as Error)?.message ?? String(error)}`);
    return 1;
  }
}

/** The same, as `npm run workflow -- search-tools …` calls it (scripts/workflow.ts). */
export async function runSearchTools(args: string[]): Promise<number> {
  return searchToolsCommand(args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = searchToolsCommand(process.argv.slice(2));
}
