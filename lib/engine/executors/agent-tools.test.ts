import { randomUUID } from "node:crypto";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ScriptedTurn, scriptedModel } from "../../../testing/ai/scripted-model.fixture";
import type { ScriptedRequest } from "../../../testing/ai/scripted-model.fixture";
import type { WorkflowInput } from "../../graph";
import { parseWorkflow } from "../../graph";
import { spyOnClientTaskStream } from "../../../testing/mcp/client-task-stream-spy.fixture";
import { MemorySink } from "../../trace/memory-sink";
import { createLocalEnvironment } from "../../runs/local-environment";
import { runWorkflow } from "../run-workflow";

type Script = Array<ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn)>;

/**
 * start → agent → end, and a Task Start wired to the agent by a task edge
 * whose sub-flow is summarize → writer (a second agent, with the unit
 * converter as its tool) → summarize-end.
 */
const document: WorkflowInput = {
  version: 1,
  name: "Task as a tool",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "agent", type: "offline-agent", position: { x: 200, y: 0 } },
    { id: "end", type: "end", position: { x: 400, y: 0 } },
    {
      id: "summarize",
      type: "task-start",
      position: { x: 0, y: 200 },
      config: { title: "Summarize text", description: "Summarizes a text in one line.", inputs: [{ name: "text", type: "string", description: "The text to summarize.", required: true }] },
    },
    { id: "writer", type: "offline-agent", position: { x: 200, y: 200 } },
    { id: "converter", type: "unit-converter", position: { x: 200, y: 400 } },
    { id: "summarize-end", type: "task-end", position: { x: 400, y: 200 } },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
    { id: "e2", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    { id: "e3", kind: "task", source: "summarize", sourceHandle: "task", target: "agent", targetHandle: "mcpService" },
    { id: "e4", kind: "signal", source: "summarize", sourceHandle: "text", target: "writer", targetHandle: "prompt" },
    { id: "e5", kind: "service", source: "converter", sourceHandle: "mcpService", target: "writer", targetHandle: "mcpService" },
    { id: "e6", kind: "signal", source: "writer", sourceHandle: "answer", target: "summarize-end", targetHandle: "result" },
  ],
};

const callsTheTask: Script = [
  { toolCalls: [{ name: "summarize_text", arguments: { text: "The run is 5 kilometre long." } }] },
  (request) => ({ text: `${request.results[0].isError ? "The task failed" : "Summary"}: ${request.results[0].output}` }),
];

async function run(scripts: Record<string, Script>) {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => problem.message).join("; "));
  const models = new Map<string, ReturnType<typeof scriptedModel>>();
  const env = await createLocalEnvironment({
    overrides: {
      models: ({ nodeId }) => {
        const model = scriptedModel(scripts[nodeId] ?? []);
        models.set(nodeId, model);
        return model;
      },
    },
  });
  const sink = new MemorySink();
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "Summarize my run" }, sink, env });
  const nodeRun = (nodeId: string) => sink.nodeStarts.find((start) => start.nodeId === nodeId);
  return { outcome, sink, models, nodeRun };
}

/** Watches the MCP tasks API on both sides: the tasks the server's store creates and ends, and what the client's stream yields. */
function watchTasks() {
  const created = vi.spyOn(InMemoryTaskStore.prototype, "createTask");
  const stored = vi.spyOn(InMemoryTaskStore.prototype, "storeTaskResult");
  const statuses = vi.spyOn(InMemoryTaskStore.prototype, "updateTaskStatus");
  const clientSaw = spyOnClientTaskStream();
  return { created, stored, statuses, clientSaw };
}

describe("a Task Start as an agent's tool", () => {
  afterEach(() => vi.restoreAllMocks());

  it("runs the sub-flow as an MCP task, traced once and with the sub-flow nested under the call", async () => {
    const watch = watchTasks();
    const { outcome, sink, models, nodeRun } = await run({
      agent: callsTheTask,
      writer: [{ toolCalls: [{ name: "convertUnits", arguments: { value: 5, from: "kilometre", to: "mile" } }] }, { text: "A 3.1 mile run." }],
    });

    expect(outcome).toEqual({ status: "completed", outputs: { result: "Summary: A 3.1 mile run." }, error: null });
    expect(models.get("agent")?.requests[0].tools).toEqual(["summarize_text"]);

    // Through the MCP tasks API: the server created one task and stored its result as completed; the client followed it.
    expect(watch.created).toHaveBeenCalledTimes(1);
    expect(watch.stored).toHaveBeenCalledTimes(1);
    expect(watch.stored.mock.calls[0].slice(1, 3)).toEqual(["completed", { content: [{ type: "text", text: "A 3.1 mile run." }] }]);
    expect(watch.clientSaw[0]).toBe("taskCreated");
    expect(watch.clientSaw).toContain("taskStatus");
    expect(watch.clientSaw.at(-1)).toBe("result");

    // One row for the task call, written by the task server, under the agent's node run.
    const taskRows = sink.toolCalls.filter((row) => row.tool === "summarize_text");
    expect(taskRows).toHaveLength(1);
    const [taskRow] = taskRows;
    expect(taskRow).toMatchObject({
      nodeRunId: nodeRun("agent")?.nodeRunId,
      server: "summarize",
      caller: "agent",
      arguments: { text: "The run is 5 kilometre long." },
      result: "A 3.1 mile run.",
      isError: false,
      inputTokens: 10,
      outputTokens: 5,
    });

    // The sub-flow's node runs hang under that row; the workflow's own do not.
    for (const nodeId of ["summarize", "writer", "summarize-end"]) expect(nodeRun(nodeId)?.parentToolCallId).toBe(taskRow.id);
    for (const nodeId of ["start", "agent", "end"]) expect(nodeRun(nodeId)?.parentToolCallId).toBeNull();
    // And the sub-flow's own tool calls hang under its node runs.
    const convertRow = sink.toolCalls.find((row) => row.tool === "convertUnits");
    expect(convertRow).toMatchObject({ nodeRunId: nodeRun("writer")?.nodeRunId, caller: "writer", isError: false });
    expect(sink.toolCalls).toHaveLength(2);
    expect(sink.nodeEnds.every((end) => end.status === "completed")).toBe(true);
  });

  it("hands a failed task back to the model as an error result", async () => {
    const watch = watchTasks();
    const { outcome, sink, models, nodeRun } = await run({
      agent: callsTheTask,
      writer: [
        () => {
          throw new Error("the writer's model is unavailable");
        },
      ],
    });

    const result = models.get("agent")?.requests[1].results[0];
    expect(result).toMatchObject({ name: "summarize_text", isError: true, output: expect.stringContaining("the writer's model is unavailable") });
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: expect.stringMatching(/^The task failed: .*the writer's model is unavailable/) } });
    expect(watch.stored.mock.calls[0][1]).toBe("failed");
    expect(watch.clientSaw[0]).toBe("taskCreated");

    const taskRows = sink.toolCalls.filter((row) => row.tool === "summarize_text");
    expect(taskRows).toHaveLength(1);
    expect(taskRows[0]).toMatchObject({ isError: true, result: null, error: expect.stringContaining("the writer's model is unavailable") });
    expect(nodeRun("writer")?.parentToolCallId).toBe(taskRows[0].id);
    expect(sink.nodeEnds.find((end) => end.nodeRunId === nodeRun("writer")?.nodeRunId)?.status).toBe("failed");
  });

  it("cancels the task when the run is cancelled", async () => {
    const watch = watchTasks();
    const parsed = parseWorkflow(document);
    if (!parsed.ok) throw new Error("bad fixture");
    const controller = new AbortController();
    let writerStarted = () => {};
    const started = new Promise<void>((resolve) => (writerStarted = resolve));
    const env = await createLocalEnvironment({
      overrides: {
        models: ({ nodeId }) =>
          nodeId === "agent"
            ? scriptedModel(callsTheTask)
            : {
                label: "a model that never answers (test double)",
                async start() {
                  return {
                    turn: (_tools, signal) => {
                      writerStarted();
                      return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted"))));
                    },
                    addResults() {},
                  };
                },
              },
      },
    });
    const sink = new MemorySink();
    const running = runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink, env, signal: controller.signal });
    await started;
    controller.abort();
    const outcome = await running;

    expect(outcome.status).toBe("cancelled");
    expect(watch.created).toHaveBeenCalledTimes(1);
    const taskId = (await watch.created.mock.results[0].value).taskId as string;
    // Cancelled in the store (whichever side got there first: the task server hearing the run's signal, or the agent's tasks/cancel); nothing was stored after.
    expect(watch.statuses.mock.calls.filter((call) => call[1] === "cancelled").map((call) => call[0])).toContain(taskId);
    expect(watch.stored).not.toHaveBeenCalled();
    const taskRows = sink.toolCalls.filter((row) => row.tool === "summarize_text");
    expect(taskRows).toHaveLength(1);
    expect(taskRows[0]).toMatchObject({ isError: true, error: "the task was cancelled" });
    // Written before the run ended: the run waits for its tasks.
    expect(sink.ends).toHaveLength(1);
  });
});
