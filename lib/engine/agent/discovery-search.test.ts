import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../../testing/ai/scripted-model.fixture";
import { rankWithToolIndex } from "../local-environment";
import { runAgentLoop } from "./agent-loop";
import { threeHundredTools } from "../../../testing/engine/three-hundred-tools.fixture";

describe("progressive discovery with the real tool search", () => {
  it("finds the incident tool for a job in other words than its description, and calls it through call_tool", async () => {
    const ran: string[] = [];
    const tools = threeHundredTools(ran);
    expect(tools).toHaveLength(300);
    let found: Array<{ name: string; server: string }> = [];
    const model = scriptedModel([
      { toolCalls: [{ name: "search_tools", arguments: { query: "let the on-call engineer know the database is down", limit: 3 } }] },
      (request) => {
        found = JSON.parse(request.results[0].output);
        const incident = found.find((tool) => tool.name === "create_incident");
        return { toolCalls: [{ name: "call_tool", arguments: { name: incident?.name ?? "none", arguments: { title: "Database down" } } }] };
      },
      { text: "Incident opened." },
    ]);
    const result = await runAgentLoop({
      conversation: await model.start({ instructions: "", config: {}, inputs: {} }),
      tools,
      maxTurns: 5,
      stuckAfterRepeats: 3,
      nodeRunId: "n",
      callerNodeId: "agent",
      rank: rankWithToolIndex(tools),
      recordPlatformCall: () => {},
    });
    expect(result.discovery).toBe(true);
    expect(model.requests.every((request) => request.tools.join() === "search_tools,call_tool")).toBe(true);
    expect(found.map((tool) => tool.name)).toContain("create_incident");
    expect(ran).toEqual(["pagerduty/create_incident"]);
    expect(result.status).toBe("completed");
  });

  it("answers search_tools with each tool's full input schema and server", async () => {
    const tools = threeHundredTools([]);
    const model = scriptedModel([{ toolCalls: [{ name: "search_tools", arguments: { query: "turn 5 km into miles" } }] }, { text: "ok" }]);
    await runAgentLoop({
      conversation: await model.start({ instructions: "", config: {}, inputs: {} }),
      tools,
      maxTurns: 3,
      stuckAfterRepeats: 3,
      nodeRunId: "n",
      callerNodeId: "agent",
      rank: rankWithToolIndex(tools),
      recordPlatformCall: () => {},
    });
    const listed = JSON.parse(model.requests[1].results[0].output) as Array<{ name: string; server: string; inputSchema: { properties: object } }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThanOrEqual(5);
    for (const tool of listed) {
      expect(tool.server).toEqual(expect.any(String));
      expect(tool.inputSchema.properties).toEqual(expect.any(Object));
    }
  });
});
