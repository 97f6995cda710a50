import type { WorkflowInput } from "../graph/workflow";

/**
 * The workflow a fresh install starts with: a question goes from Start to an
 * agent on the built-in offline model, which answers it by calling the unit
 * converter's tools (a service edge); its answer is the run's output. It runs
 * with no API key and no network. demo-workflow.test.ts checks it against
 * lib/graph's validation and the node types in nodes/.
 */
const document = {
  version: 1,
  name: "Demo: unit conversion agent",
  description: "An offline agent answers unit questions with the unit converter's tools.",
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 120 },
      config: {
        inputs: [{ name: "question", type: "string", description: "A unit question, e.g. convert 5 kilometre to mile.", required: true }],
      },
    },
    { id: "agent", type: "offline-agent", position: { x: 320, y: 120 }, config: { maxTurns: 5 } },
    { id: "converter", type: "unit-converter", position: { x: 320, y: 360 }, config: {} },
    { id: "end", type: "end", position: { x: 640, y: 120 }, config: {} },
  ],
  edges: [
    { id: "question-to-agent", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
    { id: "converter-tools", kind: "service", source: "converter", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
    { id: "answer-to-end", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
  ],
} satisfies WorkflowInput;

export const demoWorkflow = {
  id: "demo",
  name: document.name,
  description:
    "An agent on the built-in offline model answers unit questions by calling the unit converter's tools. Runs offline, no API key needed.",
  document,
};
