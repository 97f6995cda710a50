import { randomUUID } from "node:crypto";
import type { PrismaClient } from "./create-client";
import { toDatabaseError } from "./database-error";
import { toJsonText } from "./json-text";
import { countCalls, storedDuration } from "./run-aggregates";
import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, TaintRecord, ToolCallRow } from "../trace";
import type { RunOrigin } from "../run-model";

/**
 * The engine's RunSink on the database: a Run row, a NodeRun row per node
 * run (with the outputs the taint registry marked), exactly one ToolCall row
 * per `toolCall` event, and a TaintRecord row per entry of the run's taint
 * registry, each written before the method returns (the engine awaits it,
 * so nothing is lost when the process goes on). Rows are inserted and
 * updated with createMany / updateMany, which read nothing back (create and
 * update would return the row). JSON values are stored as
 * text. One sink writes one run: it numbers the tool-call and taint rows
 * 1, 2, 3… together in the order they arrive (`sequence`), which lets a
 * live page ask for "the rows after n". Node runs are numbered apart
 * (`changeSequence`: each start and end takes the next number), and each
 * call adds one to the run's call count (lib/db/run-aggregates.ts) in the
 * call's transaction.
 *
 * Not server-only, so tests and scripts can use it with their own client;
 * the app passes its shared client.
 *
 * @example
 * await runWorkflow({ ..., sink: new PrismaRunSink(prisma(), { document }) });
 */
export class PrismaRunSink implements RunSink {
  private sequence = 0;
  private nodeRunChanges = 0;

  constructor(
    private readonly db: PrismaClient,
    /**
     * The document that runs, frozen on the Run row when the row does not
     * exist yet; the process holding the run and until when, written with
     * its start (an outside service call's lease: see lib/runs/outside-runs.ts).
     */
    private readonly options: {
      document?: unknown;
      holder?: () => { workerId: string; leaseExpiresAt: Date };
      origin?: RunOrigin;
      /** The highest row number the run already holds: a sink that adds rows to an ended run (an MCP App's calls) numbers after it. */
      sequenceAfter?: number;
    } = {},
  ) {
    this.sequence = options.sequenceAfter ?? 0;
  }

  async runStart(event: RunStartEvent): Promise<void> {
    const input = toJsonText(event.input);
    const startedAt = new Date(event.startedAt);
    const holder = this.options.holder?.() ?? {};
    await this.write("record the start of the run", () =>
      this.db.run.upsert({
        where: { id: event.runId },
        create: { id: event.runId, workflowId: event.workflowId, document: toJsonText(this.options.document ?? {}), input, status: "running", startedAt, ...holder, ...(this.options.origin ? { origin: JSON.stringify(this.options.origin), originKind: this.options.origin.kind } : {}) },
        update: { input, status: "running", startedAt, endedAt: null, error: null, ...holder },
      }),
    );
  }

  async nodeStart(event: NodeStartEvent): Promise<void> {
    const changeSequence = (this.nodeRunChanges += 1);
    await this.write(`record the start of node "${event.nodeId}"`, () =>
      this.db.nodeRun.upsert({
        where: { id: event.nodeRunId },
        // A resumed run starts the same node run again: the same row, running again.
        update: { status: "running", endedAt: null, error: null, changeSequence },
        create: {
          id: event.nodeRunId,
          runId: event.runId,
          nodeId: event.nodeId,
          nodeType: event.nodeType,
          parentToolCallId: event.parentToolCallId,
          status: "running",
          inputs: toJsonText(event.inputs),
          startedAt: new Date(event.startedAt),
          changeSequence,
        },
      }),
    );
  }

  async toolCall(row: ToolCallRow): Promise<void> {
    this.sequence += 1;
    const sequence = this.sequence;
    await this.write(`record the call of tool "${row.tool}"`, () =>
      this.db.$transaction([
        this.db.toolCall.createMany({
          data: {
            id: row.id,
            runId: row.runId,
            nodeRunId: row.nodeRunId,
            tool: row.tool,
            server: row.server,
            caller: row.caller,
            arguments: toJsonText(row.arguments),
            result: row.result === null || row.result === undefined ? null : toJsonText(row.result),
            error: row.error,
            isError: row.isError,
            tainted: row.tainted,
            startedAt: new Date(row.startedAt),
            durationMs: storedDuration(row.durationMs),
            inputTokens: row.inputTokens,
            outputTokens: row.outputTokens,
            sequence,
            stepKey: row.stepKey ?? null,
          },
        }),
        ...this.callTotals(row),
      ]),
    );
  }

  async nodeEnd(event: NodeEndEvent): Promise<void> {
    await this.write("record the end of a node run", () =>
      this.db.nodeRun.updateMany({
        where: { id: event.nodeRunId },
        data: {
          status: event.status,
          outputs: toJsonText(event.outputs),
          taintedOutputs: toJsonText(event.taintedOutputs ?? []),
          error: event.error,
          turns: event.turns,
          endedAt: new Date(event.endedAt),
          changeSequence: (this.nodeRunChanges += 1),
        },
      }),
    );
  }

  async taintRecord(record: TaintRecord): Promise<void> {
    this.sequence += 1;
    const sequence = this.sequence;
    const common = { id: randomUUID(), runId: record.runId, kind: record.kind, nodeId: record.nodeId, nodeRunId: record.nodeRunId, recordedAt: new Date(record.recordedAt), sequence };
    const data =
      record.kind === "tool-result"
        ? { ...common, source: record.source, server: record.server, tool: record.tool, toolCallId: record.toolCallId }
        : record.kind === "memory-key"
          ? { ...common, key: record.key, toolCallId: record.toolCallId, origins: toJsonText(record.origins) }
          : { ...common, output: record.output, origins: toJsonText(record.origins) };
    await this.write(`record where external content went (${record.kind})`, () => this.db.taintRecord.createMany({ data }));
  }

  async runEnd(event: RunEndEvent): Promise<void> {
    await this.write("record the end of the run", () =>
      this.db.run.updateMany({
        where: { id: event.runId },
        data: { status: event.status, outputs: toJsonText(event.outputs), error: event.error, endedAt: new Date(event.endedAt) },
      }),
    );
  }

  /** What the call adds to the run's counts (lib/db/run-aggregates.ts), as Prisma writes in the call's transaction. */
  private callTotals(row: ToolCallRow) {
    const [counts] = countCalls(row.runId, [row]);
    const { runId, nodeRunId, tool, ...added } = counts;
    const durationMs = storedDuration(row.durationMs);
    return [
      this.db.runCallTotal.upsert({
        where: { runId_nodeRunId_tool: { runId, nodeRunId, tool } },
        create: counts,
        update: Object.fromEntries(Object.entries(added).map(([column, value]) => [column, { increment: value }])),
      }),
      this.db.run.updateMany({ where: { id: row.runId }, data: { callCount: { increment: 1 } } }),
      this.db.run.updateMany({ where: { id: row.runId, longestCallMs: { lt: durationMs } }, data: { longestCallMs: durationMs } }),
    ];
  }

  private async write(action: string, query: () => Promise<unknown>): Promise<void> {
    try {
      await query();
    } catch (error) {
      throw toDatabaseError(error, action);
    }
  }
}
