import type { RunSink } from "../../trace";
import type { RecordedStep, RunJournal, StepRows } from "./run-journal";

/**
 * A journal kept in memory: what a run uses when nothing durable backs it
 * (the CLI's `run`, the outside MCP endpoint, tests). Step rows go straight
 * to the sink. `previous` steps are replayed as if recorded, which is how
 * tests drive a resume without a database.
 */
export function memoryJournal(sink: Pick<RunSink, "toolCall" | "taintRecord">, previous: readonly RecordedStep[] = []): RunJournal & { steps: Map<string, RecordedStep> } {
  const steps = new Map(previous.map((step) => [step.key, step]));
  return {
    steps,
    lookup: (key) => steps.get(key),
    async record(step: RecordedStep, rows?: StepRows) {
      for (const row of rows?.toolCalls ?? []) await sink.toolCall(row);
      for (const record of rows?.taint ?? []) await sink.taintRecord?.(record);
      steps.set(step.key, step);
    },
  };
}
