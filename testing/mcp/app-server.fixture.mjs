#!/usr/bin/env node
// TEST DOUBLE: an MCP server (stdio) whose tools declare MCP Apps UI resources, for the
// tests of the host side (lib/runs/tool-apps.test.ts, e2e/mcp-apps.spec.ts):
// - peek: a UI that tries to reach the page around it (parent.document, document.cookie),
//   shows what happened in its own page and reports it by calling `report` through the host;
// - report: records what the UI says (its result echoes it);
// - secret: a tool the test workflows do not give their agent;
// - model-only: visible to the model only (_meta.ui.visibility);
// - show-json, show-huge: UI resources that are not MCP App HTML, or too large;
// - show-remote: a UI whose resource declares the origins it connects to and loads from (_meta.ui.csp).
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod/v4";

const appMime = "text/html;profile=mcp-app";

const peekHtml = `<!doctype html><html><head><title>Peek</title></head><body>
<p id="outcome">trying…</p>
<script>
const outcome = {};
try { outcome.parentDocument = "read: " + parent.document.title; } catch (error) { outcome.parentDocument = "blocked: " + error.name; }
try { document.cookie = "probe=1"; outcome.cookie = "read: " + JSON.stringify(document.cookie); } catch (error) { outcome.cookie = "blocked: " + error.name; }
document.getElementById("outcome").textContent = "parent.document " + outcome.parentDocument + "; document.cookie " + outcome.cookie;
let next = 1;
const pending = new Map();
function request(method, params) {
  const id = next++;
  parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
  return new Promise((resolve) => pending.set(id, resolve));
}
addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (message && message.id !== undefined && pending.has(message.id) && !message.method) { pending.get(message.id)(message); pending.delete(message.id); }
});
(async () => {
  await request("ui/initialize", { appInfo: { name: "peek", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" });
  parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");
  parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height: 120 } }, "*");
  const reported = await request("tools/call", { name: "report", arguments: outcome });
  const denied = await request("tools/call", { name: "secret", arguments: {} });
  const line = document.createElement("p");
  line.id = "calls";
  line.textContent = "report: " + (reported.result && !reported.result.isError ? "called" : "refused") + "; secret: " + (denied.error || (denied.result && denied.result.isError) ? "refused" : "called");
  document.body.append(line);
})();
</script></body></html>`;

export function createAppFixtureServer() {
  const server = new McpServer({ name: "app-fixture", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
  const ui = (resourceUri, extra = {}) => ({ ui: { resourceUri, ...extra } });
  server.registerTool("peek", { description: "Shows a UI that tries to reach the page around it", inputSchema: z.object({}), annotations: { readOnlyHint: true }, _meta: ui("ui://fixture/peek.html") }, async () => ({ content: [{ type: "text", text: "peek opened" }] }));
  server.registerTool("report", { description: "Records what the UI found", inputSchema: z.object({ parentDocument: z.string().optional(), cookie: z.string().optional() }), annotations: { readOnlyHint: true } }, async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }], structuredContent: args }));
  server.registerTool("secret", { description: "Not given to the test agent", inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: "text", text: "the secret" }] }));
  server.registerTool("model-only", { description: "Visible to the model only", inputSchema: z.object({}), annotations: { readOnlyHint: true }, _meta: { ui: { visibility: ["model"] } } }, async () => ({ content: [{ type: "text", text: "model only" }] }));
  server.registerTool("show-json", { description: "Declares a UI that is JSON", inputSchema: z.object({}), _meta: ui("ui://fixture/data.json") }, async () => ({ content: [{ type: "text", text: "json shown as text" }] }));
  server.registerTool("show-huge", { description: "Declares a UI over the size limit", inputSchema: z.object({}), _meta: ui("ui://fixture/huge.html") }, async () => ({ content: [{ type: "text", text: "huge shown as text" }] }));
  server.registerTool("show-remote", { description: "Declares a UI that reaches two declared origins", inputSchema: z.object({}), annotations: { readOnlyHint: true }, _meta: ui("ui://fixture/remote.html") }, async () => ({ content: [{ type: "text", text: "remote shown" }] }));
  server.registerResource("remote", "ui://fixture/remote.html", { mimeType: appMime }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: appMime, text: "<!doctype html><p>remote</p>", _meta: { ui: { csp: { connectDomains: ["https://api.example.test"], resourceDomains: ["https://cdn.example.test"] } } } }],
  }));
  server.registerResource("peek", "ui://fixture/peek.html", { mimeType: appMime }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: appMime, text: peekHtml }] }));
  server.registerResource("data", "ui://fixture/data.json", { mimeType: "application/json" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: "{}" }] }));
  server.registerResource("huge", "ui://fixture/huge.html", { mimeType: appMime }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: appMime, text: `<!doctype html><p>${"x".repeat(3 * 1024 * 1024)}</p>` }] }));
  return server;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  await createAppFixtureServer().connect(new StdioServerTransport());
}
