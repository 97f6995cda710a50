import type { TaintRegistry, ToolCallRow } from "../trace";
import type { RunMemory } from "./builtin/run-memory";

/** What binds a tool to one run: where its trace rows go, the run's taint registry and memory. */
export interface ToolBinding {
  runId: string;
  /** Writes one trace row (the run's sink). */
  recordCall(row: ToolCallRow): void | Promise<void>;
  taint: TaintRegistry;
  memory: RunMemory;
  /** The clock, for get_current_time; default the system clock. */
  now?: () => Date;
}
