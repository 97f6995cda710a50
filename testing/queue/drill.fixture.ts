/**
 * TEST DOUBLES for the kill drills: a fixture HTTP server on 127.0.0.1 that
 * counts every request it executes (the "outside world" a run must not
 * touch twice), the node types the drill workflow uses, and the workflow.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export interface CountingServer {
  url: string;
  /** Executions by `<name>:<tag>`. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export interface CountingOptions {
  maxDelayMs?: number;
  delayMs?: number;
  /** A delay for this one request (ms), overriding the others; undefined keeps them. */
  delayFor?: (name: string, tag: string) => number | undefined;
  /** Told of every execution as it is counted (before the answer is sent). */
  onCount?: (name: string, tag: string) => void;
}

/** Answers POST /count/<name> with `{ tag }` after a short random delay (or exactly `delayMs`), and counts it. */
export async function countingServer(options: CountingOptions = {}): Promise<CountingServer> {
  const counts = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const name = decodeURIComponent((request.url ?? "").replace(/^\/count\//, ""));
      const tag = String((JSON.parse(body || "{}") as { tag?: unknown }).tag ?? "");
      const key = `${name}:${tag}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      options.onCount?.(name, tag);
      const delay = options.delayFor?.(name, tag) ?? options.delayMs ?? Math.floor(Math.random() * (options.maxDelayMs ?? 30));
      setTimeout(() => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ tag, name }));
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

const stepNode = (name: string, idempotent: boolean) => ({
  "interface.yaml": `name: ${name}
title: ${name}
description: A drill step that posts its tag to the counting server.
category: Drill
kind: PromiseNode
inputs:
  - name: tag
    type: string
    description: The run's tag.
outputs:
  - name: tag
    type: string
    description: The tag, as the server echoed it.
`,
  "config.yaml": `configSchema:
  type: object
  properties:
    baseUrl: { type: string }
    name: { type: string }
`,
  "api/run.yaml": `- name: post
  method: POST
  url: "{{ config.baseUrl }}/count/{{ config.name }}"
  body: { tag: "{{ inputs.tag }}" }
  timeoutMs: 5000
${idempotent ? "  idempotent: true\n" : ""}`,
  "api/events.yaml": `- emit: tag
  from: response
  value: "{{ response.tag }}"
`,
});

const ledgerNode = {
  "interface.yaml": `name: drill-ledger
title: Drill ledger
description: Records entries on the counting server.
category: Drill
kind: PromiseNode
serviceConnectors:
  - name: mcpService
    serviceType: mcp
    isService: true
    methods: [recordEntry]
`,
  "config.yaml": `configSchema:
  type: object
  properties:
    baseUrl: { type: string }
`,
  "api/service.yaml": `recordEntry:
  description: Record an entry in the ledger. Returns the entry's tag.
  inputs:
    type: object
    properties:
      note: { type: string, description: The entry text. }
    required: [note]
  annotations: { idempotentHint: true }
  calls:
    - name: post
      method: POST
      url: "{{ config.baseUrl }}/count/ledger"
      body: { tag: "{{ params.note }}" }
      timeoutMs: 5000
  returns: "return response.tag"
`,
};

const agentNode = {
  "interface.yaml": `name: drill-agent
title: Drill agent
description: The offline model with the ledger's tools.
category: Drill
kind: CallbackNode
inputs:
  - name: prompt
    type: string
    description: The task.
    required: true
outputs:
  - name: answer
    type: string
    description: The answer.
serviceConnectors:
  - name: mcpService
    serviceType: mcp
    isService: false
    description: Tools.
`,
  "config.yaml": `configSchema:
  type: object
  properties:
    maxTurns: { type: integer, default: 4 }
`,
  "api/toolExchange.yaml": `adapter: offline\nmaxTurns: "{{ config.maxTurns }}"\nstuckAfterRepeats: 3\n`,
  "api/events.yaml": `- emit: answer\n  from: complete\n  value: "{{ text }}"\n`,
};

/** Writes the drill's node types into `<root>/nodes`. */
export async function writeDrillNodes(root: string): Promise<string> {
  const nodesDir = path.join(root, "nodes");
  const types: Record<string, Record<string, string>> = { "drill-step": stepNode("drill-step", true), "drill-charge": stepNode("drill-charge", false), "drill-ledger": ledgerNode, "drill-agent": agentNode };
  for (const [name, files] of Object.entries(types)) {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(nodesDir, name, file)), { recursive: true });
      await writeFile(path.join(nodesDir, name, file), text);
    }
  }
  return nodesDir;
}

/**
 * start → s1 → s2 → charge (not idempotent) → agent (calls the ledger) → s3 → end.
 * Every step and call reaches the counting server with the run's tag.
 */
export function drillWorkflow(baseUrl: string) {
  const at = (x: number) => ({ x, y: 0 });
  const step = (id: string, type = "drill-step") => ({ id, type, position: at(0), config: { baseUrl, name: id } });
  const nodes = [
    { id: "start", type: "start", position: at(0), config: { inputs: [{ name: "tag", type: "string", required: true }] } },
    step("s1"),
    step("s2"),
    step("charge", "drill-charge"),
    { id: "agent", type: "drill-agent", position: at(0), config: {}, approvals: { "ledger/recordEntry": "allow" } }, // the drill is about crashes, not approvals: the ledger's results taint, and an allow for a tainted context must name the tool (docs/approvals.md)
    { id: "ledger", type: "drill-ledger", position: at(0), config: { baseUrl } },
    step("s3"),
    { id: "end", type: "end", position: at(0), config: {} },
  ];
  const signal = (id: string, source: string, sourceHandle: string, target: string, targetHandle: string) => ({ id, kind: "signal" as const, source, sourceHandle, target, targetHandle });
  const edges = [
    signal("e1", "start", "tag", "s1", "tag"),
    signal("e2", "s1", "tag", "s2", "tag"),
    signal("e3", "s2", "tag", "charge", "tag"),
    signal("e4", "charge", "tag", "agent", "prompt"),
    { id: "e5", kind: "service" as const, source: "ledger", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
    signal("e6", "agent", "answer", "s3", "tag"),
    signal("e7", "s3", "tag", "end", "result"),
  ];
  return { version: 1, name: "Kill drill", nodes, edges };
}

/** start → end, nothing else: what a run costs the queue and the worker alone (its `tag` input is its result). */
export const trivialWorkflow = {
  version: 1,
  name: "trivial",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "tag", type: "string", required: true }] } },
    { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "tag", target: "end", targetHandle: "result" }],
};
