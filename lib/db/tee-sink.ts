import type { RunSink } from "../trace";

/**
 * TEST DOUBLE: a sink that sends every event to both sinks, in order, so a
 * test can hold what the engine reported (a MemorySink) against what the
 * database holds (a PrismaRunSink).
 */
export function teeSink(first: RunSink, second: RunSink): RunSink {
  return {
    runStart: async (event) => (await first.runStart(event), await second.runStart(event)),
    nodeStart: async (event) => (await first.nodeStart(event), await second.nodeStart(event)),
    toolCall: async (row) => (await first.toolCall(row), await second.toolCall(row)),
    nodeEnd: async (event) => (await first.nodeEnd(event), await second.nodeEnd(event)),
    modelTurn: async (turn) => (await first.modelTurn?.(turn), await second.modelTurn?.(turn)),
    taintRecord: async (record) => (await first.taintRecord?.(record), await second.taintRecord?.(record)),
    runEnd: async (event) => (await first.runEnd(event), await second.runEnd(event)),
  };
}
