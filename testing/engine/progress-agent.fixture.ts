/**
 * TEST FIXTURE: an agent type whose outputs go out while it works, and the
 * workflow around it: openai-agent with a second output, `progress`, put
 * out after each successful convertUnits call, in a temp copy of nodes/.
 */
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { WorkflowInput } from "../../lib/graph";

/** openai-agent with a second output, `progress`, put out after each successful convertUnits call. */
const progressAgent = {
  "interface.yaml": `name: progress-agent
title: Progress agent
description: An agent that reports each conversion it makes while it works.
category: Agents
kind: CallbackNode
inputs:
  - name: prompt
    type: string
    required: true
outputs:
  - name: progress
    type: object
    description: One conversion the agent made, as soon as it made it.
  - name: answer
    type: string
credentials:
  - name: openai
    displayName: API key
    fields: [apiKey]
    required: false
serviceConnectors:
  - name: mcpService
    serviceType: mcp
    isService: false
`,
  "api/events.yaml": `- emit: progress
  from: tool
  when: "return !tool.isError && tool.name === 'convertUnits'"
  value: "return { server: tool.server, from: tool.arguments.from, to: tool.arguments.to, result: tool.result.result, asked: inputs.prompt }"
- emit: answer
  from: complete
  value: "{{ text }}"
`,
};

/** A temp copy of nodes/ with progress-agent in it. */
export async function writeProgressAgentNodes(): Promise<{ nodesDir: string; remove(): Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-progress-agent-"));
  const nodesDir = path.join(root, "nodes");
  await cp(path.resolve(import.meta.dirname, "../../nodes"), nodesDir, { recursive: true });
  const folder = path.join(nodesDir, "progress-agent");
  await cp(path.join(nodesDir, "openai-agent"), folder, { recursive: true });
  await rm(path.join(folder, "test.yaml"), { force: true });
  for (const [file, text] of Object.entries(progressAgent)) await writeFile(path.join(folder, file), text);
  return { nodesDir, remove: () => rm(root, { recursive: true, force: true }) };
}

/** start → agent (unit-converter wired as its tools); agent.progress → webhook (http-request); agent.answer → end. */
export const progressWorkflow = (webhookUrl: string): WorkflowInput => ({
  version: 1,
  name: "progress",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "agent", type: "progress-agent", position: { x: 200, y: 0 }, config: { maxTurns: 6 } },
    { id: "tools", type: "unit-converter", position: { x: 200, y: 200 }, config: {} },
    { id: "webhook", type: "http-request", position: { x: 400, y: 100 }, config: { baseUrl: webhookUrl, method: "POST", path: "progress" } },
    { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
    { id: "e2", kind: "service", source: "tools", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
    { id: "e3", kind: "signal", source: "agent", sourceHandle: "progress", target: "webhook", targetHandle: "body" },
    { id: "e4", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
  ],
});

