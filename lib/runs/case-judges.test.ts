import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { score } from "../evals/scorers";
import type { TestCase } from "../evals/test-case";
import { parseWorkflow, type Workflow } from "../graph";
import { caseJudges } from "./test-cases";

// TEST DOUBLE: an OpenAI-compatible server on this machine that grades everything 0.9, and keeps what it was asked.
const asked: Array<{ messages: Array<{ role: string; content: string }> }> = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      asked.push(JSON.parse(body));
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "grader", choices: [{ index: 0, message: { role: "assistant", content: '{"score": 0.9, "reason": "in kilometres"}' }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS = origin;
});
afterAll(async () => {
  delete process.env.SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS;
  await new Promise((resolve) => server.close(resolve));
});

function documentWithJudge(): Workflow {
  const parsed = parseWorkflow({
    version: 1,
    name: "judged",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "grader", type: "ollama-agent", position: { x: 200, y: 0 }, config: { baseUrl: `${origin}/v1`, model: "grader" } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "a", kind: "signal", source: "start", sourceHandle: "question", target: "grader", targetHandle: "prompt" },
      { id: "b", kind: "signal", source: "grader", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.workflow;
}

describe("a case's judge", () => {
  it("asks the model of the agent node it names, as that node resolves it, and scores by the answer", async () => {
    const rubric = "Answers in kilometres.";
    const testCase = { assertions: { outputs: [{ kind: "judge", rubric, threshold: 0.7, modelNode: "grader" }], toolCalls: [], modelRequests: [] } } as unknown as TestCase;
    const context = await caseJudges(testCase, documentWithJudge());
    const result = await score({ kind: "judge", rubric, threshold: 0.7, modelNode: "grader" }, { result: "42.2 km" }, { result: "42.195 km" }, context);
    expect(result).toEqual({ score: 0.9, pass: true, reason: "judged 0.90 (needs 0.7): in kilometres" });
    const prompt = JSON.stringify(asked.at(-1)?.messages);
    expect(prompt).toContain("Rubric:\\nAnswers in kilometres.");
    expect(prompt).toContain("42.2 km");
  }, 60_000);

  it("fails, saying why, when the named node is not in the document", async () => {
    const testCase = { assertions: { outputs: [{ kind: "judge", rubric: "x", threshold: 0.5, modelNode: "gone" }], toolCalls: [], modelRequests: [] } } as unknown as TestCase;
    const context = await caseJudges(testCase, documentWithJudge());
    expect(await score({ kind: "judge", rubric: "x", threshold: 0.5, modelNode: "gone" }, "a", "b", context)).toEqual({ score: 0, pass: false, reason: 'the judge failed: the judge\'s model node "gone" is not in the document' });
  }, 60_000);
});
