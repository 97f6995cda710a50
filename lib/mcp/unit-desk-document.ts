import type { WorkflowInput } from "../graph";

/** TEST FIXTURE: the "Unit desk" workflow of the endpoint tests. Two flows on one canvas: the unit converter (a service node) and a Task Start whose sub-flow asks an offline agent that uses it. */
export const unitDeskDocument = {
  version: 1,
  name: "Unit desk",
  description: "Unit conversions for outside hosts.",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "agent", type: "offline-agent", position: { x: 300, y: 0 }, config: { maxTurns: 4 } },
    { id: "end", type: "end", position: { x: 600, y: 0 }, config: {} },
    { id: "converter", type: "unit-converter", position: { x: 300, y: 200 }, config: {} },
    {
      id: "ask",
      type: "task-start",
      position: { x: 0, y: 400 },
      config: { title: "Answer a unit question", description: "Answers a question about units with the unit converter.", inputs: [{ name: "question", type: "string", required: true }] },
    },
    { id: "task-agent", type: "offline-agent", position: { x: 300, y: 400 }, config: { maxTurns: 4 } },
    { id: "ask-end", type: "task-end", position: { x: 600, y: 400 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
    { id: "e2", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    { id: "e3", kind: "service", source: "converter", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
    { id: "e4", kind: "signal", source: "ask", sourceHandle: "question", target: "task-agent", targetHandle: "prompt" },
    { id: "e5", kind: "signal", source: "task-agent", sourceHandle: "answer", target: "ask-end", targetHandle: "result" },
    { id: "e6", kind: "service", source: "converter", sourceHandle: "mcpService", target: "task-agent", targetHandle: "mcpService" },
  ],
} satisfies WorkflowInput;

/** TEST FIXTURE: the Unit desk, plus a Task Start whose sub-flow waits 30 s (a Delay node): a task still running when another process cancels it. */
export const waitingDeskDocument = {
  ...unitDeskDocument,
  nodes: [
    ...unitDeskDocument.nodes,
    { id: "wait", type: "task-start", position: { x: 0, y: 600 }, config: { title: "Wait a while", description: "Waits half a minute.", inputs: [{ name: "payload", type: "object", required: true }] } },
    { id: "wait-delay", type: "delay", position: { x: 300, y: 600 }, config: { seconds: 30 } },
    { id: "wait-end", type: "task-end", position: { x: 600, y: 600 }, config: {} },
  ],
  edges: [
    ...unitDeskDocument.edges,
    { id: "w1", kind: "signal", source: "wait", sourceHandle: "payload", target: "wait-delay", targetHandle: "value" },
    { id: "w2", kind: "signal", source: "wait-delay", sourceHandle: "value", target: "wait-end", targetHandle: "result" },
  ],
} satisfies WorkflowInput;
