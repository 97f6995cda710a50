import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const key = "sk-command-line-key-0123456789";
let folder: string;
let model: { url: string; authorizations: string[]; close(): Promise<void> };

/** TEST DOUBLE: an OpenAI-compatible chat endpoint on 127.0.0.1 that answers "hello" and keeps the Authorization headers it got. */
async function chatServer(): Promise<typeof model> {
  const authorizations: string[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      authorizations.push(String(request.headers.authorization ?? ""));
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ id: "c1", object: "chat.completion", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "hello" } }], usage: { prompt_tokens: 1, completion_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-run-command-"));
  model = await chatServer();
  const document = {
    version: 1,
    name: "Ask",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "agent", type: "openai-agent", position: { x: 200, y: 0 }, config: { model: "gpt-4o-mini", baseUrl: `${model.url}/v1` } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
      { id: "e2", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  };
  await writeFile(path.join(folder, "ask.json"), JSON.stringify(document));
});

afterAll(async () => {
  await model?.close();
  await rm(folder, { recursive: true, force: true });
});

function workflowRun(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "scripts", "cli.mjs"), "workflow", "run", path.join(folder, "ask.json"), "--input", '{"question":"hi"}', "--json"],
      { cwd: root, env: { ...process.env, DATABASE_URL: `file:${path.join(folder, "app.db")}`, SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: model.url, SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY: key, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run workflow -- run", () => {
  it("runs through the run service with a worker's environment: the key goes to an origin only SWITCHBOARD_CREDENTIAL_<NAME>_ORIGINS allows, and the run is recorded", async () => {
    const refused = await workflowRun({});
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: "failed", error: expect.stringContaining("refused to send the credential 'openai'") });
    expect(model.authorizations).toEqual([]);

    const allowed = await workflowRun({ SWITCHBOARD_CREDENTIAL_OPENAI_ORIGINS: model.url });
    expect(allowed.stderr).not.toContain("internal error");
    const outcome = JSON.parse(allowed.stdout) as { runId: string; status: string; outputs: unknown; nodeRuns: Array<{ nodeId: string; status: string }> };
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "hello" } });
    expect(outcome.nodeRuns.map((node) => node.nodeId)).toEqual(["start", "agent", "end"]);
    expect(model.authorizations[0]).toBe(`Bearer ${key}`);
    expect(allowed.code).toBe(0);
  }, 120_000);
});
