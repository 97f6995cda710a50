import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { runAgentLoop } from "../engine/agent/agent-loop";
import type { ToolCallRow } from "../trace/run-events";
import { spyOnClientTaskStream } from "../../testing/mcp/client-task-stream-spy.fixture";
import { externalServerTools } from "./external-server-tools";
import { serverEverythingCommand } from "./server-everything";
import { connectStdio, type StdioConnection } from "./stdio-connection";

// Secrets the parent holds: the child server must never see them.
const parentSecrets = { DATABASE_URL: "postgres://switchboard:hunter2@db.internal/prod", SWITCHBOARD_CREDENTIAL_X: "sk-test-do-not-leak" };

describe("server-everything over stdio, used by an agent", () => {
  let connection: StdioConnection;
  const saved = Object.fromEntries(Object.keys(parentSecrets).map((key) => [key, process.env[key]]));

  beforeAll(async () => {
    Object.assign(process.env, parentSecrets);
    connection = await connectStdio(serverEverythingCommand(), "switchboard-test");
  }, 30_000);

  afterEach(() => vi.restoreAllMocks());

  afterAll(async () => {
    await connection?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it("lists its tools, one of them task-required", async () => {
    const { tools } = await connection.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-env", "get-sum", "simulate-research-query", "trigger-long-running-operation"]));
    expect(tools.length).toBeGreaterThanOrEqual(12);
    expect(tools.filter((tool) => tool.execution?.taskSupport === "required").map((tool) => tool.name)).toEqual(["simulate-research-query"]);
  });

  it(
    "an agent calls echo, reads get-env, and runs the research tool as a task; one trace row per call",
    async () => {
      const clientSaw = spyOnClientTaskStream();
      const rows: ToolCallRow[] = [];
      const tools = await externalServerTools({ client: connection.client, server: "everything", runId: "run-1", recordCall: (row) => void rows.push(row) });
      const model = scriptedModel([
        { toolCalls: [{ name: "echo", arguments: { message: "hello from Switchboard" } }, { name: "get-env", arguments: {} }] },
        { toolCalls: [{ name: "simulate-research-query", arguments: { topic: "sea otters" } }] },
        (request) => ({ text: `Research done: ${request.results[0].output.split("\n")[0]}` }),
      ]);
      const result = await runAgentLoop({
        conversation: await model.start({ instructions: connection.instructions ?? "", config: {}, inputs: {} }),
        tools,
        maxTurns: 5,
        stuckAfterRepeats: 3,
        nodeRunId: "agent-run-1",
        callerNodeId: "agent",
        // Every tool offered by name (13 definitions are over the discovery threshold).
        discoveryThreshold: Number.POSITIVE_INFINITY,
        recordPlatformCall: () => {
          throw new Error("no call here is the platform's");
        },
      });

      expect(model.requests[0].tools).toEqual(expect.arrayContaining(["echo", "get-env", "simulate-research-query"]));
      const [echo, env] = model.requests[1].results;
      expect(echo).toMatchObject({ name: "echo", isError: false, output: "Echo: hello from Switchboard" });

      // The child's environment: the minimal one, none of the parent's secrets.
      expect(env.isError).toBe(false);
      const childEnv = JSON.parse(env.output) as Record<string, string>;
      expect(childEnv.DATABASE_URL).toBeUndefined();
      expect(childEnv.SWITCHBOARD_CREDENTIAL_X).toBeUndefined();
      expect(env.output).not.toContain("hunter2");
      expect(env.output).not.toContain("sk-test-do-not-leak");
      expect(childEnv.PATH).toBe(process.env.PATH);
      // Only PATH, HOME and the SDK's short list of harmless variables; node may add its own few.
      const harmless = new Set(["PATH", "HOME", "LOGNAME", "SHELL", "TERM", "USER"]);
      expect(Object.keys(childEnv).filter((key) => !harmless.has(key) && !key.startsWith("NODE_"))).toEqual([]);

      // The task-required tool ran as an MCP task: created, followed, then its result read.
      const research = model.requests[2].results[0];
      expect(research).toMatchObject({ name: "simulate-research-query", isError: false });
      expect(research.output).toContain("# Research Report: sea otters");
      expect(clientSaw[0]).toBe("taskCreated");
      expect(clientSaw).toContain("taskStatus");
      expect(clientSaw.at(-1)).toBe("result");
      expect(result).toMatchObject({ status: "completed", text: "Research done: # Research Report: sea otters", toolCalls: 3 });

      // One row per call, written by Switchboard's side of the outside server.
      expect(rows.map((row) => row.tool)).toEqual(["echo", "get-env", "simulate-research-query"]);
      for (const row of rows) expect(row).toMatchObject({ runId: "run-1", nodeRunId: "agent-run-1", server: "everything", caller: "agent", isError: false, tainted: true });
      expect(rows[0]).toMatchObject({ arguments: { message: "hello from Switchboard" }, result: "Echo: hello from Switchboard" });
      expect(rows[2].durationMs).toBeGreaterThan(2_000);
    },
    30_000,
  );
});
