import { describe, expect, it } from "vitest";
import { declarativeAgent } from "../../../testing/ai/declarative-agent.fixture";
import { recordingModel } from "../../../testing/ai/recording-model.fixture";
import { serversClosedAfterEach } from "../../../testing/ai/servers-closed-after-each.fixture";
import type { ModelProtocol } from "../../ai/model";
import { sdkProtocol } from "../../ai/sdk-protocol";
import type { AgentTool } from "../../tools/agent-tool";
import { rankWithToolIndex } from "../local-environment";
import { runAgentLoop } from "./agent-loop";

// Once a tool found by search_tools was chosen, the search's answer (the found tools' schemas) is
// summarized in the history the model gets on later turns; the offered tools stay the same.

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const servers = serversClosedAfterEach();

/** Enough tools that discovery switches on (threshold 10 tokens), each with a schema that says so. */
const tools: AgentTool[] = ["create_issue", "close_issue", "add_comment", "list_repos"].map((name) => ({
  name,
  server: "github",
  description: `${name.replace("_", " ")} in a repository`,
  inputSchema: { type: "object", properties: { repo: { type: "string", description: `SCHEMA-OF-${name}` } } },
  call: async () => ({ output: `${name} done`, isError: false }),
}));

const search = { name: "search_tools", arguments: { query: "create an issue" } };
const choose = { name: "call_tool", arguments: { name: "create_issue", arguments: { repo: "acme/app" } } };

async function drive(protocol: ModelProtocol, config: Record<string, unknown> = {}) {
  const conversation = await protocol.start({ instructions: "", config, inputs: { prompt: "File the crash." } });
  return runAgentLoop({ conversation, tools, maxTurns: 6, stuckAfterRepeats: 3, nodeRunId: "n", callerNodeId: "agent", rank: rankWithToolIndex(tools), discoveryThreshold: 10, recordPlatformCall: () => undefined });
}

describe("search_tools answers leave the history once a tool was chosen", () => {
  it("through the AI SDK adapter: the schemas reach the model for its choice, then only a summary", async () => {
    const recorded = recordingModel([
      { calls: [{ id: "s1", name: search.name, input: JSON.stringify(search.arguments) }] },
      { calls: [{ id: "c1", name: choose.name, input: JSON.stringify(choose.arguments) }] },
      { text: "Filed." },
    ]);
    const result = await drive(sdkProtocol({ label: "test", model: recorded.model }));
    expect(result).toMatchObject({ status: "completed", discovery: true, toolCalls: 2 });
    expect(JSON.stringify(recorded.prompts[1])).toContain("SCHEMA-OF-create_issue");
    const last = JSON.stringify(recorded.prompts[2]);
    expect(last).not.toContain("SCHEMA-OF-");
    expect(last).toContain("create_issue was chosen");
    expect(recorded.toolLists[2]).toEqual(recorded.toolLists[0]);
  });

  it("keeps a search whose tools were not chosen whole", async () => {
    const recorded = recordingModel([
      { calls: [{ id: "s1", name: search.name, input: JSON.stringify(search.arguments) }] },
      { calls: [{ id: "c1", name: "call_tool", input: JSON.stringify({ name: "list_repos", arguments: {} }) }] },
      { text: "Listed." },
    ]);
    await drive(sdkProtocol({ label: "test", model: recorded.model }));
    expect(JSON.stringify(recorded.prompts[2])).toContain("SCHEMA-OF-create_issue");
  });

  it.each(["openai", "anthropic"] as const)("through the shipped %s agent's declarative protocol", async (vendor) => {
    const { server, protocol, config } = await declarativeAgent({ vendor, servers, script: [{ toolCalls: [search] }, { toolCalls: [choose] }, { text: "Filed." }] });
    const result = await drive(protocol, config);
    expect(result).toMatchObject({ status: "completed", discovery: true });
    expect(JSON.stringify(server.requests[1].body)).toContain("SCHEMA-OF-create_issue");
    const last = JSON.stringify(server.requests[2].body);
    expect(last).not.toContain("SCHEMA-OF-");
    expect(last).toContain("create_issue was chosen");
    expect(server.requests[2].body.tools).toEqual(server.requests[0].body.tools);
  });
});
