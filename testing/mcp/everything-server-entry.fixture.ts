import { serverEverythingLine } from "../../lib/mcp/server-everything";

/**
 * TEST SUPPORT: a registry entry for the MCP "everything" server run from
 * node_modules over stdio (the stdio catalogue's `everything` entry), whose
 * env takes one secret, TOKEN. Tests spread it and add what they need
 * (secret values, limits).
 */
export const everythingServerEntry = {
  id: "everything",
  name: "Everything",
  transport: "stdio",
  ...serverEverythingLine(),
  env: { API_TOKEN: "{{ secrets.TOKEN }}" },
  secrets: ["TOKEN"],
};
