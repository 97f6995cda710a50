import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskOutcome, TaskRequest } from "../engine/run-context";
import { taskToolDefinition } from "../graph";
import type { ToolCallRow } from "../trace/run-events";
import { callerMetaKey } from "./caller-meta";
import { agentToolsFromClient } from "./client-tools";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { createTaskServer, type TaskServer } from "./task-server";

const definition = taskToolDefinition({
  type: "task-start",
  config: { title: "Summarize text", description: "Summarizes a text in one line.", inputs: [{ name: "text", type: "string", required: true }] },
})!;
const meta = { callId: "call_1", nodeRunId: "agent-run-1", callerNodeId: "agent" };

/** A sub-flow that runs until the test settles it: so the test sees the task while it is still working. */
function pendingSubflow() {
  const requests: TaskRequest[] = [];
  const settles: Array<(outcome: TaskOutcome) => void> = [];
  return {
    requests,
    settle: (outcome: TaskOutcome) => settles.shift()?.(outcome),
    run: (request: TaskRequest) => {
      requests.push(request);
      return new Promise<TaskOutcome>((resolve) => {
        settles.push(resolve);
        request.signal?.addEventListener("abort", () => resolve({ ok: false, message: "the run was cancelled" }));
      });
    },
  };
}

describe("createTaskServer", () => {
  let tasks: TaskServer | undefined;
  let connection: InMemoryConnection | undefined;
  afterEach(async () => {
    await tasks?.close();
    await connection?.close();
  });

  async function serve(runTask: (request: TaskRequest) => Promise<TaskOutcome>) {
    const rows: ToolCallRow[] = [];
    tasks = createTaskServer({ runId: "run-1", tasks: [{ taskStartId: "summarize", definition }], runTask, recordCall: (row) => void rows.push(row) });
    connection = await connectInMemory(tasks.server.server, "test-agent");
    return { rows, client: connection.client };
  }

  it("lists each Task Start as a task-required tool with its own schema", async () => {
    const { client } = await serve(async () => ({ ok: true, result: "" }));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ name: "summarize_text", title: "Summarize text", description: definition.description, execution: { taskSupport: "required" } });
    expect(tools[0].inputSchema).toMatchObject(definition.inputSchema);
    // A plain call is refused: the tool only runs as a task.
    await expect(client.callTool({ name: "summarize_text", arguments: { text: "x" } })).rejects.toThrow(/task/);
  });

  it("answers with the task id at once, runs the sub-flow in the background and stores its Task End's value", async () => {
    const subflow = pendingSubflow();
    const { rows, client } = await serve(subflow.run);
    await client.listTools();
    const stream = client.experimental.tasks.callToolStream(
      { name: "summarize_text", arguments: { text: "A long text." }, _meta: { [callerMetaKey]: { nodeRunId: "agent-run-1", nodeId: "agent", callId: "call_1", usage: { inputTokens: 7, outputTokens: 3 } } } },
      CallToolResultSchema,
    );
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    const taskId = first.value && first.value.type === "taskCreated" ? first.value.task.taskId : "";
    // The sub-flow has started and has not finished: the caller already holds the id, and can ask.
    await expect.poll(() => subflow.requests.length).toBe(1);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("working");
    expect(rows).toEqual([]);

    subflow.settle({ ok: true, result: { summary: "Short.", words: 1 } });
    const messages = [];
    for await (const message of stream) messages.push(message);
    const result = messages.at(-1);
    expect(result).toMatchObject({ type: "result", result: { content: [{ type: "text", text: '{"summary":"Short.","words":1}' }], structuredContent: { summary: "Short.", words: 1 } } });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed");

    expect(rows).toHaveLength(1);
    expect(subflow.requests[0]).toMatchObject({ taskStartId: "summarize", args: { text: "A long text." }, parentToolCallId: rows[0].id });
    expect(rows[0]).toMatchObject({
      runId: "run-1",
      nodeRunId: "agent-run-1",
      tool: "summarize_text",
      server: "summarize",
      caller: "agent",
      arguments: { text: "A long text." },
      result: { summary: "Short.", words: 1 },
      error: null,
      isError: false,
      inputTokens: 7,
      outputTokens: 3,
    });
  });

  it("answers a failed sub-flow with a failed task whose result says why", async () => {
    const { rows, client } = await serve(async () => ({ ok: false, message: "invalid arguments: text is required" }));
    const [tool] = await agentToolsFromClient(client, "tasks");
    const outcome = await tool.call({}, meta);
    expect(outcome).toMatchObject({ isError: true, output: "invalid arguments: text is required" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ isError: true, error: "invalid arguments: text is required", result: null, caller: "agent", arguments: {} });
    const { tasks: listed } = await client.experimental.tasks.listTasks();
    expect(listed.map((task) => task.status)).toEqual(["failed"]);
  });

  it("cancels the task, and its sub-flow, when the caller gives up", async () => {
    const subflow = pendingSubflow();
    const { rows, client } = await serve(subflow.run);
    const [tool] = await agentToolsFromClient(client, "tasks");
    const controller = new AbortController();
    const call = tool.call({ text: "x" }, { ...meta, signal: controller.signal });
    await expect.poll(() => subflow.requests.length).toBe(1);
    controller.abort();
    expect(await call).toMatchObject({ isError: true, output: expect.stringMatching(/cancelled/) });
    await expect.poll(() => subflow.requests[0].signal?.aborted).toBe(true);
    await expect.poll(() => rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ isError: true, error: "the task was cancelled" });
    const { tasks: listed } = await client.experimental.tasks.listTasks();
    expect(listed.map((task) => task.status)).toEqual(["cancelled"]);
  });

  it("records an outside host's call under the host's name", async () => {
    const { rows, client } = await serve(async () => ({ ok: true, result: "done" }));
    const [tool] = await agentToolsFromClient(client, "tasks", { sendCaller: false });
    expect(await tool.call({ text: "x" }, meta)).toMatchObject({ isError: false, output: "done" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ caller: "mcp-host:test-agent", nodeRunId: null, result: "done" });
  });

  it("still ends the task when its trace row cannot be written, so the caller is not left waiting", async () => {
    tasks = createTaskServer({
      runId: "run-1",
      tasks: [{ taskStartId: "summarize", definition }],
      runTask: async () => ({ ok: true, result: "done" }),
      recordCall: async () => {
        throw new Error("database is locked");
      },
    });
    connection = await connectInMemory(tasks.server.server, "test-agent");
    const [tool] = await agentToolsFromClient(connection.client, "tasks");
    const controller = new AbortController();
    const giveUp = setTimeout(() => controller.abort(), 2_000);
    const outcome = await tool.call({ text: "x" }, { ...meta, signal: controller.signal });
    clearTimeout(giveUp);
    expect(outcome).toMatchObject({ isError: false, output: "done" });
  });
});
