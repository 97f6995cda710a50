/**
 * The conformance suite's client driver: Switchboard's own MCP client
 * (connectEntry: the v2 SDK client with era negotiation, the URL guard,
 * the registry's entry rules) against the suite's scenario server. The
 * suite passes the server's URL as the last argument and the scenario in
 * MCP_CONFORMANCE_SCENARIO. The driver connects, lists the tools, calls
 * each with arguments made from its input schema, and closes.
 */
import { connectEntry, listConnectedTools } from "../lib/mcp/connect-entry";
import { parseServerEntry } from "../lib/mcp/registry";

const url = process.argv.at(-1) ?? "";
const verdict = parseServerEntry({ id: "conformance", name: "Conformance scenario", transport: "http", url, timeoutMs: 20_000 });
if (!verdict.ok) {
  console.error(`not a server URL: ${verdict.problem.message}`);
  process.exit(2);
}
const entry = verdict.entry;
// The scenario server listens on 127.0.0.1: private addresses are allowed for this driver only.
const connection = await connectEntry(entry, { policy: { stdioDisabled: false, allowPrivateUrls: true } });
try {
  const tools = await listConnectedTools(connection, entry);
  for (const tool of tools) {
    if (tool.problem) continue;
    const result = await connection.client.callTool({ name: tool.name, arguments: sampleArguments(tool.inputSchema) });
    console.log(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
  }
} finally {
  await connection.close();
}

/** Arguments that satisfy a simple JSON Schema: each required property gets a value of its type. */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) values[name] = property.default;
    else if (property.enum?.length) values[name] = property.enum[0];
    else values[name] = { number: 1, integer: 1, boolean: true, array: [], object: {} }[property.type ?? ""] ?? "test";
  }
  return values;
}
