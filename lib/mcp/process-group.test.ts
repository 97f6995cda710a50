import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "../engine/run-workflow";
import { chainDocument, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { connectEntry } from "./connect-entry";
import { ConnectionManager } from "./connection-manager/connection-manager";
import { InMemoryServerRegistry } from "./registry";

// The npx case of issue 11: `npx -y <server>` runs the real server as npx's child; ending npx alone orphaned it.

/** The live (not zombie) processes of a process group, read from /proc. */
function processesInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Task calls sent to the server so far (the cancel waits for one). */
let taskCalls = 0;

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await nodes.remove();
});

/** Runs an agent with server-everything started through npx; `groups` gets each session's process group. */
async function npxRun(script: Parameters<typeof scriptedModel>[0], groups: number[], options: { cancelWhen?: () => boolean } = {}) {
  const registry = new InMemoryServerRegistry({ policy: () => ({ stdioDisabled: false, allowedPrivateOrigins: [] }) });
  // npx finds the package in node_modules (a dev dependency) and never asks the registry: offline, as everywhere here.
  await registry.save({ id: "everything", name: "Everything", transport: "stdio", catalogue: "everything-npx", timeoutMs: 60_000 });
  const controller = new AbortController();
  const manager = new ConnectionManager(registry, {
    connect: async (entry, request) => {
      const connection = await connectEntry(entry, request);
      groups.push(connection.pgid!);
      const callTask = connection.client.callTaskTool.bind(connection.client);
      connection.client.callTaskTool = (params, signal) => {
        taskCalls += 1;
        return callTask(params, signal);
      };
      return connection;
    },
  });
  const model = scriptedModel(script);
  const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => model, mcpTools: manager, dispose: () => manager.closeAll() } });
  const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "mcp", serverId: "everything", toolNames: ["echo", "simulate-research-query"] }] }]));
  if (!parsed.ok) throw new Error("the test document does not parse");
  const sink = new MemorySink();
  const running = runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "go" }, sink, env, signal: controller.signal });
  if (options.cancelWhen) {
    await expect.poll(() => options.cancelWhen!(), { timeout: 30_000 }).toBe(true);
    controller.abort();
  }
  return { outcome: await running, sink };
}

describe("stdio servers in their own process group", () => {
  it(
    "a run using `npx -y @modelcontextprotocol/server-everything` leaves no process of it when it ends",
    async () => {
      let during: number[] = [];
      const groups: number[] = [];
      const { outcome } = await npxRun(
        [
          { toolCalls: [{ name: "echo", arguments: { message: "hi" } }] },
          (request) => {
            during = processesInGroup(groups[0]);
            return { text: request.results[0].output };
          },
        ],
        groups,
      );
      expect(outcome).toMatchObject({ status: "completed", outputs: { result: "Echo: hi" } });
      expect(groups).toHaveLength(1);
      // npx and the real server it started: two processes (at least) in the one group.
      expect(during.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => processesInGroup(groups[0]).length, { timeout: 10_000 }).toBe(0);
    },
    90_000,
  );

  it(
    "a run cancelled while the server's task runs leaves no process of it",
    async () => {
      const groups: number[] = [];
      const { outcome, sink } = await npxRun([{ toolCalls: [{ name: "simulate-research-query", arguments: { topic: "otters" } }] }, { text: "never reached" }], groups, {
        // Cancelled once the task call is out to the server.
        cancelWhen: () => taskCalls === 1,
      });
      expect(outcome).toMatchObject({ status: "cancelled" });
      expect(sink.toolCalls).toEqual([expect.objectContaining({ tool: "simulate-research-query", isError: true })]);
      await expect.poll(() => processesInGroup(groups[0]).length, { timeout: 10_000 }).toBe(0);
    },
    90_000,
  );
});
