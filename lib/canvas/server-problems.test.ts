import { describe, expect, it } from "vitest";
import type { Workflow } from "../graph";
import type { CanvasServer } from "./canvas-servers";
import { migrateMcpToolSources } from "./migrate-mcp-tools";
import { serverProblems } from "./server-problems";

const server = (id: string, availability: CanvasServer["availability"], reason?: string): [string, CanvasServer] => [id, { id, name: `Server ${id}`, availability, ...(reason ? { reason } : {}) }];
const echoTools = { everything: { status: "ready" as const, tools: [{ name: "echo", description: "Echoes", inputSchema: {} }] } };

function wiredTo(serverId: string, toolNames?: string[]): Workflow {
  return {
    version: 1,
    name: "w",
    nodes: [
      { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: {} },
      { id: "srv", type: "mcp-server", position: { x: 0, y: 200 }, config: toolNames ? { serverId, toolNames } : { serverId } },
    ],
    edges: [{ id: "e", kind: "service", source: "srv", sourceHandle: "tools", target: "agent", targetHandle: "mcpService" }],
  };
}

describe("serverProblems", () => {
  it("says on the node when its server is missing, switched off, refused or not granted", () => {
    const servers = new Map([server("off", "disabled"), server("bad", "refused", "'bash' is not an allowed command"), server("locked", "not-granted", "no grant for this workflow")]);
    const codes = (id: string) => serverProblems(wiredTo(id), servers, {}).map((problem) => [problem.code, problem.severity]);
    expect(codes("gone")).toEqual([["mcp-server-missing", "error"]]);
    expect(codes("off")).toEqual([["mcp-server-disabled", "error"]]);
    expect(codes("locked")).toEqual([["mcp-server-not-granted", "error"]]);
    expect(serverProblems(wiredTo("bad"), servers, {})[0].message).toContain("'bash' is not an allowed command");
  });

  it("says an OAuth server must be reconnected, with the reason", () => {
    const servers = new Map([server("oauth", "reconnect", "the refresh token was revoked")]);
    expect(serverProblems(wiredTo("oauth"), servers, {})).toEqual([
      expect.objectContaining({ code: "mcp-server-reconnect", severity: "error", message: expect.stringMatching(/must be reconnected \(the refresh token was revoked\)\. Press Reconnect on the Servers page\.$/) }),
    ]);
  });

  it("names a chosen tool the server no longer lists; an available server with its tools is fine", () => {
    const servers = new Map([server("everything", "available")]);
    expect(serverProblems(wiredTo("everything", ["echo"]), servers, echoTools)).toEqual([]);
    expect(serverProblems(wiredTo("everything", ["echo", "gone-tool"]), servers, echoTools)).toEqual([
      expect.objectContaining({ code: "mcp-tool-missing", field: "config.toolNames", message: expect.stringContaining('"gone-tool"') }),
    ]);
    expect(serverProblems(wiredTo("everything"), servers, { everything: { status: "failed", error: "spawn failed" } })).toEqual([
      expect.objectContaining({ code: "mcp-tools-unlisted", severity: "warning" }),
    ]);
  });

  it("only warns about a server node no agent uses", () => {
    const workflow = { ...wiredTo("gone"), edges: [] };
    expect(serverProblems(workflow, new Map(), {}).map((problem) => problem.severity)).toEqual(["warning"]);
  });
});

describe("migrateMcpToolSources", () => {
  it("moves an agent's declared MCP servers onto the canvas, wired to its tool socket, keeping the rest of its list", () => {
    const workflow: Workflow = {
      version: 1,
      name: "w",
      nodes: [
        {
          id: "agent",
          type: "offline-agent",
          position: { x: 100, y: 50 },
          config: {},
          tools: [{ type: "builtin", name: "get_current_time" }, { type: "mcp", serverId: "everything", toolNames: ["echo"] }],
        },
      ],
      edges: [],
    };
    const { workflow: moved, moved: count } = migrateMcpToolSources(workflow, (type) => (type === "offline-agent" ? "mcpService" : undefined));
    expect(count).toBe(1);
    expect(moved.nodes[0].tools).toEqual([{ type: "builtin", name: "get_current_time" }]);
    expect(moved.nodes[1]).toEqual({ id: "everything", type: "mcp-server", position: { x: 100, y: 290 }, config: { serverId: "everything", toolNames: ["echo"] } });
    expect(moved.edges).toEqual([{ id: "everything-tools", kind: "service", source: "everything", sourceHandle: "tools", target: "agent", targetHandle: "mcpService" }]);
  });

  it("leaves an emptied list empty, so the type's default tools stay replaced; leaves other documents alone", () => {
    const workflow: Workflow = { version: 1, name: "w", nodes: [{ id: "a", type: "offline-agent", position: { x: 0, y: 0 }, config: {}, tools: [{ type: "mcp", serverId: "s" }] }], edges: [] };
    expect(migrateMcpToolSources(workflow, () => "mcpService").workflow.nodes[0].tools).toEqual([]);
    const plain: Workflow = { ...workflow, nodes: [{ ...workflow.nodes[0], tools: undefined }] };
    expect(migrateMcpToolSources(plain, () => "mcpService")).toEqual({ workflow: plain, moved: 0 });
  });
});
