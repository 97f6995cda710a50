/**
 * TEST SUPPORT: a registry entry for the MCP "everything" server run from
 * node_modules over stdio, whose env takes one secret, TOKEN. Tests spread
 * it and add what they need (secret values, limits).
 */
export const everythingServerEntry = {
  id: "everything",
  name: "Everything",
  transport: "stdio",
  command: "node",
  args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
  env: { API_TOKEN: "{{ secrets.TOKEN }}" },
  secrets: ["TOKEN"],
};
