import { describe, expect, it } from "vitest";
import { parseWorkflow, type WorkflowInput } from "../graph";
import { approvalPolicy } from "../manifest/schemas/approval-policy";
import { approvalLoosenings, loosens } from "./approval-loosenings";

/** An agent wired to the registry server `mail` through an MCP server node, with the document's own policies. */
function document(approvals?: Record<string, unknown>, edgeApproval?: unknown) {
  const input: WorkflowInput = {
    version: 1,
    name: "imported",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "clerk", type: "plain-agent", position: { x: 200, y: 0 }, config: {}, ...(approvals ? { approvals: approvals as never } : {}) },
      { id: "mail-node", type: "mcp-server", position: { x: 200, y: 200 }, config: { serverId: "mail" } },
    ],
    edges: [{ id: "mail-edge", kind: "service", source: "mail-node", sourceHandle: "tools", target: "clerk", targetHandle: "mcpService", ...(edgeApproval === undefined ? {} : { approval: edgeApproval as never }) }],
  };
  const parsed = parseWorkflow(input);
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => problem.message).join("; "));
  return parsed.workflow;
}

const ownerSaysAsk = (id: string) => (id === "mail" ? { tools: { send_email: "ask" as const } } : undefined);

describe("a document that would loosen a server's approval default", () => {
  it('approvals {"*": "allow"} over an owner\'s "ask" on send_email is a loosening request, named by node, tool and where it is set', () => {
    expect(approvalLoosenings(document({ "*": "allow" }), ownerSaysAsk)).toEqual([{ nodeId: "clerk", server: "mail", tool: "send_email", setAt: 'node approvals["*"]', document: "allow", floor: "ask" }]);
    expect(approvalLoosenings(document(undefined, "allow"), ownerSaysAsk)).toEqual([expect.objectContaining({ setAt: "edge mail-edge", document: "allow" })]);
    // The server-wide default counts too, and a tool the node names under it.
    expect(approvalLoosenings(document({ send_email: "allow" }), () => ({ policy: "deny" }))).toEqual([expect.objectContaining({ tool: "send_email", setAt: 'node approvals["send_email"]', floor: "deny" })]);
  });

  it("a stricter policy, no policy, another server's tools, or a server with no default is no request", () => {
    expect(approvalLoosenings(document({ "*": "deny" }), ownerSaysAsk)).toEqual([]);
    expect(approvalLoosenings(document(), ownerSaysAsk)).toEqual([]);
    expect(approvalLoosenings(document({ "other/*": "allow" }), ownerSaysAsk)).toEqual([]);
    expect(approvalLoosenings(document({ "*": "allow" }), () => undefined)).toEqual([]);
  });

  it("loosens compares rule by rule: rules allow what no rule covers, so they loosen a fixed ask", () => {
    const parse = (value: unknown) => approvalPolicy.parse(typeof value === "string" ? { decide: value } : value);
    expect(loosens(parse("allow"), parse("ask"))).toBe(true);
    expect(loosens(parse("ask"), parse("ask"))).toBe(false);
    expect(loosens(parse("deny"), parse("ask"))).toBe(false);
    expect(loosens(parse({ decide: "rules" }), parse("ask"))).toBe(true);
    expect(loosens(parse("ask"), parse({ decide: "rules", destructive: "deny" }))).toBe(true);
    expect(loosens(parse({ decide: "rules", openWorld: "ask" }), parse({ decide: "rules" }))).toBe(false);
  });
});
