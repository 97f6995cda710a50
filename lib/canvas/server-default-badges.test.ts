import { describe, expect, it } from "vitest";
import type { CanvasServer } from "./canvas-servers";
import { serverDefaultBadge, withServerDefaultBadges } from "./server-default-badges";

const servers = new Map<string, CanvasServer>([
  ["mail", { id: "mail", name: "Mail", availability: "available", approval: { policy: "ask", tools: { list_drafts: "allow", send_email: { decide: "rules", taintedWrite: "deny" } } } }],
  ["plain", { id: "plain", name: "Plain", availability: "available" }],
]);
const nodes = [
  { id: "mail-node", data: { type: "mcp-server", config: { serverId: "mail" } } },
  { id: "drafts-node", data: { type: "mcp-server", config: { serverId: "mail", toolNames: ["list_drafts"] } } },
  { id: "plain-node", data: { type: "mcp-server", config: { serverId: "plain" } } },
  { id: "agent", data: { type: "agent", config: {} } },
];
const edge = (id: string, source: string, approval?: unknown) => ({ id, source, target: "agent", label: approval === undefined ? undefined : "approval: allow", ariaLabel: `Service edge ${id}`, className: "edge-service", data: { kind: "service", ...(approval === undefined ? {} : { approval }) } });

describe("the canvas badge of a server default", () => {
  it("shows the server's defaults on an edge without its own policy, narrowed to the node's tools", () => {
    const [all, drafts, own, plain] = withServerDefaultBadges([edge("a", "mail-node"), edge("b", "drafts-node"), edge("c", "mail-node", "allow"), edge("d", "plain-node")], nodes, servers);
    expect(all.label).toBe("approval: ask, list_drafts: allow, send_email: rules: tainted→deny, destructive→ask (from server default)");
    expect(all.ariaLabel).toBe("Service edge a, approval policy ask, list_drafts: allow, send_email: rules: tainted→deny, destructive→ask (from server default)");
    expect(all.className).toContain("from-server-default");
    expect(drafts.label).toBe("approval: ask, list_drafts: allow (from server default)");
    // The edge's own policy wins: its badge is its own.
    expect(own.label).toBe("approval: allow");
    expect(plain.label).toBeUndefined();
  });

  it("says nothing when the server sets nothing for the node's tools", () => {
    expect(serverDefaultBadge(undefined)).toBeNull();
    expect(serverDefaultBadge({ tools: { send_email: "deny" } }, ["list_drafts"])).toBeNull();
    expect(serverDefaultBadge({ tools: { send_email: "deny" } })).toBe("send_email: deny (from server default)");
  });
});
