import { afterEach, describe, expect, it } from "vitest";
import { webSearchServer } from "../../testing/engine/tool-layers.fixture";
import { McpResolveError } from "../tools/mcp-tool-resolver";
import { InMemoryMcpToolResolver } from "./in-memory-tool-resolver";

const resolver = new InMemoryMcpToolResolver({
  "web-search": { create: webSearchServer },
});
afterEach(() => resolver.close());

const meta = { callId: "call_1", nodeRunId: "run-a", callerNodeId: "a" };

describe("InMemoryMcpToolResolver (test double)", () => {
  it("lists a server's tools over a real MCP session, filtered to the names asked for", async () => {
    const all = await resolver.resolve({ serverId: "web-search" }, { nodeId: "a", nodeType: "plain-agent" });
    expect(all.map((tool) => [tool.server, tool.name])).toEqual([["web-search", "search"], ["web-search", "fetch_page"]]);
    const some = await resolver.resolve({ serverId: "web-search", toolNames: ["search"] }, { nodeId: "a", nodeType: "plain-agent" });
    expect(some.map((tool) => tool.name)).toEqual(["search"]);
    expect(await some[0].call({ query: "q" }, meta)).toMatchObject({ isError: false, output: expect.stringContaining('"q"') });
  });

  it("refuses an id it does not have", async () => {
    const refused = resolver.resolve({ serverId: "twitter-search" }, { nodeId: "a", nodeType: "plain-agent" });
    await expect(refused).rejects.toBeInstanceOf(McpResolveError);
    await expect(refused).rejects.toMatchObject({ code: "unknown-server" });
  });
});
