import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseWorkflow } from "../graph";
import { cachedCatalogue } from "../manifest";
import { firstPartyCredentialUsers } from "../manifest/first-party-credentials";
import { MemorySink } from "../trace/memory-sink";
import { credentialValuesFor } from "./executors/credentials";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";
import type { WorkflowGrants } from "./workflow-grants";

// The suspected attack of issue 21: environment credentials were keyed by the credential's name alone, so any
// node type declaring `openai`/`apiKey` (with its own origins) got SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY.

const environmentKey = "sk-from-the-environment-0123456789";
let listener: { url: string; authorizations: string[]; close(): Promise<void> };
let nodesDir: string;

/** A node type that sends credentials.openai.apiKey as a bearer token to the listener (its declared origin). */
function keySender(name: string, origin: string) {
  return {
    "interface.yaml": `name: ${name}
title: ${name}
description: Sends the OpenAI key to the listener.
category: Test
kind: PromiseNode
inputs:
  - name: question
    type: string
    description: Anything.
outputs:
  - name: answer
    type: string
    description: What the listener said.
credentials:
  - name: openai
    displayName: API key
    fields: [apiKey]
    required: false
    origins: [${origin}]
`,
    "api/run.yaml": `- name: send
  method: POST
  url: "${origin}/collect"
  credential: { scheme: bearer, token: "{{ credentials.openai.apiKey }}" }
  body: { question: "{{ inputs.question }}" }
  timeoutMs: 2000
`,
    "api/events.yaml": `- emit: answer\n  from: response\n  value: "{{ response.ok }}"\n`,
  };
}

beforeAll(async () => {
  const authorizations: string[] = [];
  // TEST DOUBLE: an outside API on 127.0.0.1 that records the Authorization header it was sent.
  const server = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? "(none)");
    request.resume();
    request.on("end", () => response.end(JSON.stringify({ ok: "yes" })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listener = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations, close: () => new Promise((resolve) => server.close(() => resolve())) };
  nodesDir = path.join(await mkdtemp(path.join(os.tmpdir(), "env-credentials-")), "nodes");
  // A first-party node type, and an imported one (nodes/imported/, where `npm run nodes -- import` writes) declaring the same credential.
  for (const [folder, files] of [
    [path.join(nodesDir, "first-sender"), keySender("first-sender", listener.url)],
    [path.join(nodesDir, "imported", "imported-sender"), keySender("imported-sender", listener.url)],
  ] as const) {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
      await writeFile(path.join(folder, file), text);
    }
  }
});
afterAll(async () => {
  await listener.close();
  await rm(path.dirname(nodesDir), { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

async function sendFrom(nodeType: string, grants?: WorkflowGrants) {
  vi.stubEnv("SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY", environmentKey);
  const parsed = parseWorkflow({
    version: 1,
    name: "sender",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "send", type: nodeType, position: { x: 200, y: 0 }, config: {} },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "send", targetHandle: "question" },
      { id: "e2", kind: "signal", source: "send", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const env = await createLocalEnvironment({ nodesDir, overrides: { allowedPrivateOrigins: [listener.url], ...(grants ? { grants } : {}) } });
  const before = listener.authorizations.length;
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "hi" }, sink: new MemorySink(), env });
  return { outcome, sent: listener.authorizations.slice(before), env };
}

const grantsWith = (environmentCredentials: string[]): WorkflowGrants => ({ servers: new Set(), credentials: new Map([["imported-sender/openai", []], ["first-sender/openai", []]]), environmentCredentials: new Set(environmentCredentials) });

describe("environment credentials are bound to the node types that may use them", () => {
  it("a first-party node type that declares openai/apiKey gets SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY", async () => {
    const { outcome, sent } = await sendFrom("first-sender");
    expect(outcome.status).toBe("completed");
    expect(sent).toEqual([`Bearer ${environmentKey}`]);
  });

  it("an imported node type declaring the same credential does not get it, until an owner allows it for the workflow", async () => {
    const refused = await sendFrom("imported-sender", grantsWith([]));
    expect(refused.sent.join(" ")).not.toContain(environmentKey);
    const manifest = refused.env.catalogue.nodes.find((node) => node.name === "imported-sender")!.manifest!;
    expect(await credentialValuesFor(manifest, refused.env)).toEqual({});

    const allowed = await sendFrom("imported-sender", grantsWith(["imported-sender/openai"]));
    expect(allowed.outcome.status).toBe("completed");
    expect(allowed.sent).toEqual([`Bearer ${environmentKey}`]);
  });

  it("by default, the shipped node types in nodes/ that declare a credential are the ones that may take it", async () => {
    const shipped = await cachedCatalogue(path.join(process.cwd(), "nodes"));
    expect([...(firstPartyCredentialUsers(shipped).get("openai") ?? [])].sort()).toEqual(expect.arrayContaining(["openai-agent", "openai-responses"]));
    const test = await cachedCatalogue(nodesDir);
    expect(firstPartyCredentialUsers(test).get("openai")).toEqual(new Set(["first-sender"]));
  });
});
