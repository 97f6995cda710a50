import type { GraphProblem } from "./graph-problem";
import { loopsWithoutExit } from "./signal-loops";
import { leavesConditionalOutput, type ValidationContext } from "./validation-context";

/** A signal loop that nothing can stop (the definition is in signal-loops.ts), reported on its first node. */
export function signalLoopsWithoutExit(context: ValidationContext): GraphProblem[] {
  return loopsWithoutExit(context.workflow, (edge) => leavesConditionalOutput(context, edge)).map((loop) => ({
    code: "signal-loop-without-exit",
    message: `${describeLoop(loop.nodeIds)} signal each other in a loop that nothing can stop: every output on it fires on every run (edges ${loop.edgeIds.map((id) => `"${id}"`).join(", ")}). Make one edge of the loop leave a conditional output (an api/events.yaml row with a \`when\`), so the loop can end.`,
    nodeId: loop.nodeIds[0],
    edgeId: loop.edgeIds[0],
    severity: "error" as const,
  }));
}

function describeLoop(nodeIds: readonly string[]): string {
  const names = nodeIds.map((id) => `"${id}"`);
  return names.length === 1 ? `Node ${names[0]} and itself` : `Nodes ${names.join(", ")}`;
}
