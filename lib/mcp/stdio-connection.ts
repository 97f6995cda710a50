import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ProcessGroupStdioTransport } from "./process-group-transport";
import type { CataloguedCommand } from "./stdio-catalogue";

export interface StdioConnection {
  client: Client;
  /** The server's instructions, for the agent's system prompt. */
  instructions: string | undefined;
  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail(): string;
  /** Ends the session and the child process. */
  close(): Promise<void>;
}

/** The server could not be started or did not complete the MCP handshake: the world's fault, worth a retry. */
export class McpConnectError extends Error {
  readonly code = "mcp-connect-failed";
  constructor(
    readonly server: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = "McpConnectError";
  }
}

/**
 * The environment a child server starts with: PATH and HOME only. The
 * parent's environment holds Switchboard's own secrets (database URL,
 * credentials); a server gets none of them, only what its registry entry
 * gives it. (The SDK's transport adds its short list of harmless
 * variables, e.g. SHELL, TERM, USER, when they are set.)
 */
export function minimalEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

const stderrLimit = 4096;

/**
 * Starts an MCP server over stdio and connects a client to it: a real
 * session with a child process. Close it (the run's resource scope does)
 * or the process outlives the run.
 *
 * @example
 * const connection = await connectStdio(serverEverythingCommand());
 * context.resources.add(() => connection.close());
 */
export async function connectStdio(server: CataloguedCommand, clientName = "switchboard-agent"): Promise<StdioConnection> {
  // The one stdio transport: it starts only what the stdio catalogue allowed, in a process group of its own.
  const transport = new ProcessGroupStdioTransport({ command: server, baseEnv: minimalEnvironment() });
  let stderr = "";
  transport.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-stderrLimit);
  });
  const client = new Client({ name: clientName, version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const detail = stderr.trim() ? `\n${stderr.trim()}` : "";
    throw new McpConnectError(server.executable, `could not start the MCP server '${[server.executable, ...server.args].join(" ")}': ${(error as Error).message}${detail}`, { cause: error });
  }
  return {
    client,
    instructions: client.getInstructions(),
    stderrTail: () => stderr,
    close: () => client.close(),
  };
}
