import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { lintNodes, type NodeManifest } from ".";
import { describeOriginChange, type OriginContext, type OriginDocument, originChanges, pendingOrigins } from "./origin-changes";

let manifests: Map<string, NodeManifest>;

beforeAll(async () => {
  const catalogue = await lintNodes(path.resolve("nodes"));
  manifests = new Map(catalogue.nodes.flatMap((node) => (node.manifest ? [[node.name, node.manifest] as const] : [])));
});

/** The shipped manifests; `openai-agent/openai` has a stored value unless told otherwise. */
function context(options: { values?: string[]; extra?: Record<string, string[]> } = {}): OriginContext {
  const values = new Set(options.values ?? ["openai-agent/openai"]);
  return {
    manifest: (type) => manifests.get(type),
    hasValue: (type, name) => values.has(`${type}/${name}`),
    extraOrigins: (type, name) => options.extra?.[`${type}/${name}`] ?? [],
  };
}

function workflow(agentConfig: Record<string, unknown>): OriginDocument {
  return {
    nodes: [
      { id: "start", type: "start", config: {} },
      { id: "agent", type: "openai-agent", config: { model: "gpt-4o-mini", ...agentConfig } },
      { id: "end", type: "end", config: {} },
    ],
  };
}

describe("originChanges", () => {
  it("an import whose agent points at a new origin: names the node, the credential, where it may go and where it goes now", () => {
    const changes = originChanges(null, workflow({ baseUrl: "https://attacker.example/v1" }), context());
    expect(changes).toEqual([
      {
        nodeId: "agent",
        nodeType: "openai-agent",
        credential: "openai",
        before: [],
        after: ["https://attacker.example"],
        unapproved: ["https://attacker.example"],
        approved: ["https://api.openai.com"],
      },
    ]);
    expect(describeOriginChange(changes[0])).toBe(
      "Node “agent” (openai-agent) now sends the credential 'openai' to https://attacker.example: only https://api.openai.com (where it may go) → https://attacker.example. Runs refuse to send it there until an owner approves.",
    );
  });

  it("a save that changes the baseUrl: before → after", () => {
    const changes = originChanges(workflow({}), workflow({ baseUrl: "https://attacker.example/v1" }), context());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ nodeId: "agent", credential: "openai", before: ["https://api.openai.com"], after: ["https://attacker.example"], unapproved: ["https://attacker.example"] });
    expect(describeOriginChange(changes[0])).toContain("https://api.openai.com → https://attacker.example");
  });

  it("an unchanged save shows nothing, even while an origin still waits for an owner", () => {
    expect(originChanges(workflow({}), workflow({}), context())).toEqual([]);
    const attacked = workflow({ baseUrl: "https://attacker.example/v1" });
    expect(originChanges(attacked, structuredClone(attacked), context())).toEqual([]);
    // ...but it is still pending: the canvas keeps its notice until an owner approves.
    expect(pendingOrigins(attacked, context()).map((change) => change.unapproved)).toEqual([["https://attacker.example"]]);
  });

  it("moving from one unapproved origin to another is a change again; back to the default is none", () => {
    const first = workflow({ baseUrl: "https://attacker.example/v1" });
    const second = workflow({ baseUrl: "https://other.example/v1" });
    expect(originChanges(first, second, context())[0]).toMatchObject({ before: ["https://attacker.example"], after: ["https://other.example"] });
    expect(originChanges(second, workflow({ baseUrl: "https://api.openai.com/v1" }), context())).toEqual([]);
  });

  it("an origin approved for this workflow, or added when the key was stored, is no change", () => {
    const attacked = workflow({ baseUrl: "https://attacker.example/v1" });
    expect(originChanges(null, attacked, context({ extra: { "openai-agent/openai": ["https://attacker.example"] } }))).toEqual([]);
    expect(pendingOrigins(attacked, context({ extra: { "openai-agent/openai": ["https://attacker.example"] } }))).toEqual([]);
  });

  it("a credential with no value is sent nowhere: no change (a key stored later shows on the Grants page and is refused at run time)", () => {
    expect(originChanges(null, workflow({ baseUrl: "http://127.0.0.1:11434/v1" }), context({ values: [] }))).toEqual([]);
  });

  it("a node added in a save with a new origin is a change with nothing before; nodes without credentials are ignored", () => {
    const before: OriginDocument = { nodes: [{ id: "start", type: "start", config: {} }] };
    const after: OriginDocument = { nodes: [...before.nodes, { id: "agent2", type: "openai-agent", config: { model: "m", baseUrl: "https://attacker.example" } }] };
    expect(originChanges(before, after, context())).toMatchObject([{ nodeId: "agent2", before: [], after: ["https://attacker.example"] }]);
  });
});
