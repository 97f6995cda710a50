import type { WorkflowInput } from "../graph";

/**
 * TEST DOUBLE: a workflow whose agent `outer` calls a Task; the Task's
 * sub-flow has its own agent `inner` with the unit converter wired as a
 * service. Both agents are openai-agent nodes, to be driven by scripted
 * models. Used where a run's nested shape matters (trace rows, spans).
 */
export const taskRoundTripWorkflow: WorkflowInput = {
  version: 1,
  name: "Task round trip",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "outer", type: "openai-agent", position: { x: 200, y: 0 }, config: {} },
    { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    { id: "task", type: "task-start", position: { x: 0, y: 300 }, config: { title: "Convert a distance", description: "Converts a distance and says the result.", inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "inner", type: "openai-agent", position: { x: 200, y: 300 }, config: {} },
    { id: "converter", type: "unit-converter", position: { x: 200, y: 500 }, config: {} },
    { id: "task-end", type: "task-end", position: { x: 400, y: 300 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "outer", targetHandle: "prompt" },
    { id: "e2", kind: "signal", source: "outer", sourceHandle: "answer", target: "end", targetHandle: "result" },
    { id: "e3", kind: "task", source: "task", sourceHandle: "task", target: "outer", targetHandle: "mcpService" },
    { id: "e4", kind: "signal", source: "task", sourceHandle: "question", target: "inner", targetHandle: "prompt" },
    { id: "e5", kind: "service", source: "converter", sourceHandle: "mcpService", target: "inner", targetHandle: "mcpService" },
    { id: "e6", kind: "signal", source: "inner", sourceHandle: "answer", target: "task-end", targetHandle: "result" },
  ],
};
