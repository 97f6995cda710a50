import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../../testing/ai/scripted-model.fixture";
import { createLocalEnvironment } from "../../runs/local-environment";
import { runWorkflow } from "../../engine/run-workflow";
import { chainDocument, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../../graph";
import { MemorySink } from "../../trace/memory-sink";
import { connectEntry } from "../connect-entry";
import { InMemoryServerRegistry } from "../registry";
import { ConnectionManager } from "./connection-manager";

// A real server over stdio (@modelcontextprotocol/server-everything), killed in the middle of a run.

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await nodes.remove();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the connection manager with server-everything over stdio", () => {
  it(
    "a server process killed mid-run: the next call reconnects (a new process) and succeeds; the run's end stops the new one",
    async () => {
      const registry = new InMemoryServerRegistry({ policy: () => ({ stdioDisabled: false, allowedPrivateOrigins: [] }) });
      await registry.save({ id: "everything", name: "Everything", transport: "stdio", catalogue: "everything" });
      // The real connector; each session's child process id is noted so the test can kill it.
      const pids: number[] = [];
      const manager = new ConnectionManager(registry, {
        connect: async (entry, request) => {
          const connection = await connectEntry(entry, request);
          pids.push(connection.pgid!);
          return connection;
        },
      });
      const model = scriptedModel([
        { toolCalls: [{ name: "echo", arguments: { message: "before the kill" } }] },
        () => {
          process.kill(pids[0], "SIGKILL");
          return { toolCalls: [{ name: "echo", arguments: { message: "after the kill" } }] };
        },
        (request) => ({ text: request.results[0].output }),
      ]);
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => model, mcpTools: manager, dispose: () => manager.closeAll() } });
      const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "mcp", serverId: "everything", toolNames: ["echo"] }], approvals: { "*": "allow" } }]));
      if (!parsed.ok) throw new Error("the test document does not parse");
      const sink = new MemorySink();

      const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "echo twice" }, sink, env });

      expect(outcome).toMatchObject({ status: "completed", outputs: { result: "Echo: after the kill" } });
      expect(sink.toolCalls.map((row) => [row.tool, row.isError, row.result])).toEqual([
        ["echo", false, "Echo: before the kill"],
        ["echo", false, "Echo: after the kill"],
      ]);
      expect(pids).toHaveLength(2);
      expect(pids[1]).not.toBe(pids[0]);
      expect(alive(pids[0])).toBe(false);
      // dispose() at the run's end closed the second session and its process.
      await expect.poll(() => alive(pids[1]), { timeout: 10_000 }).toBe(false);
    },
    60_000,
  );
});
