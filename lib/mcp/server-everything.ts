import { createRequire } from "node:module";
import type { StdioServerCommand } from "./stdio-connection";

/**
 * The MCP project's reference server, @modelcontextprotocol/server-everything
 * (a dev dependency): a real server no one here wrote, started with node
 * over stdio, for tests and for checking the client side against.
 */
export function serverEverythingCommand(): StdioServerCommand {
  const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  return { command: "node", args: [entry, "stdio"] };
}
