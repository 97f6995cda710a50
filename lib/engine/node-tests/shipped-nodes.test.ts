import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Catalogue, type CatalogueNode, lintNodes } from "../../manifest";
import { testCase } from "../../manifest/schemas";
import { sharedSandbox, type Evaluator } from "../../sandbox";
import { shippedAgent } from "../../../testing/ai/shipped-agents.fixture";
import { agentCaseRunner } from "./run-agent-case";
import { type AgentCaseRunner, type CaseOutcome, runNodeTests } from "./run-node-tests";

let evaluator: Evaluator;
let catalogue: Catalogue;
beforeAll(async () => {
  evaluator = await sharedSandbox();
  catalogue = await lintNodes(path.resolve("nodes"));
});

function node(name: string): CatalogueNode {
  const found = catalogue.nodes.find((candidate) => candidate.name === name);
  if (!found?.manifest) throw new Error(`nodes/${name} is missing or unusable`);
  return found;
}

/** The node with its test.yaml replaced by the given cases. */
function withCases(name: string, cases: unknown[]): CatalogueNode {
  const original = node(name);
  return { ...original, manifest: { ...original.manifest!, test: { testData: cases.map((item) => testCase.parse(item)) } } };
}

function describeFailures(outcomes: readonly CaseOutcome[]): string {
  return outcomes
    .filter((outcome) => outcome.status === "failed")
    .map((outcome) => `${outcome.node} › ${outcome.name}\n    ${outcome.failures.join("\n    ")}\n    output: ${JSON.stringify(outcome.output)?.slice(0, 500)}`)
    .join("\n");
}

describe("the shipped nodes' own tests", () => {
  it("every non-agent case passes, and there are at least 15", async () => {
    const outcomes = await runNodeTests(catalogue.nodes, { evaluator });
    const agentNodes = new Set(catalogue.nodes.filter((candidate) => candidate.manifest?.toolExchange).map((candidate) => candidate.name));
    const nonAgent = outcomes.filter((outcome) => !agentNodes.has(outcome.node));
    const failures = describeFailures(nonAgent);
    expect(failures, `failing node test cases:\n${failures}`).toBe("");
    expect(nonAgent.every((outcome) => outcome.status === "passed")).toBe(true);
    expect(nonAgent.filter((outcome) => outcome.status === "passed").length).toBeGreaterThanOrEqual(15);
  });

  it("agent cases are skipped, not passed, when no agent runner is given", async () => {
    const agents = catalogue.nodes.filter((candidate) => candidate.manifest?.toolExchange && candidate.manifest.test);
    expect(agents.length).toBeGreaterThan(0);
    const outcomes = await runNodeTests(agents, { evaluator });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(outcomes.map(() => "skipped"));
  });

  it("loads nodes/ without lint errors", () => {
    const errors = catalogue.problems.filter((problem) => problem.severity === "error");
    expect(errors.map((problem) => `${problem.file}:${problem.line} ${problem.rule} ${problem.message}`)).toEqual([]);
  });
});

describe("runNodeTests reports failures", () => {
  it("a deliberately broken expectation fails its case, naming the label and what it gave", async () => {
    const broken = withCases("unit-converter", [
      {
        name: "a case that must fail",
        config: { significantDigits: 10 },
        call: { method: "convertUnits", params: { value: 1, from: "kilometre", to: "metre" } },
        expect: {
          "holds": "return output.result === 1000",
          "deliberately wrong": "return output.result === 999",
          "not a boolean": "return output.result",
          "throws": "return output.nothing.here",
        },
      },
    ]);
    const [outcome] = await runNodeTests([broken], { evaluator });
    expect(outcome).toMatchObject({ node: "unit-converter", name: "a case that must fail", status: "failed" });
    expect(outcome.failures).toHaveLength(3);
    expect(outcome.failures[0]).toBe("deliberately wrong: `return output.result === 999` gave false");
    expect(outcome.failures[1]).toBe("not a boolean: `return output.result` gave 1000");
    expect(outcome.failures[2]).toMatch(/^throws: `return output\.nothing\.here` failed: /);
    expect(outcome.failures.join()).not.toMatch(/^holds:/m);
  });

  it("a case naming an unknown method fails with a reason", async () => {
    const broken = withCases("unit-converter", [{ name: "unknown method", call: { method: "noSuchMethod" }, expect: { any: "return true" } }]);
    const [outcome] = await runNodeTests([broken], { evaluator });
    expect(outcome).toMatchObject({ status: "failed", failures: ["no method 'noSuchMethod' in api/service.yaml"] });
  });

  it("arguments that fail the method's inputs reach the expectations as an isError output", async () => {
    const broken = withCases("unit-converter", [
      { name: "bad arguments", call: { method: "convertUnits", params: { value: "lots" } }, expect: { "is an error": "return output.isError === true && output.message.startsWith('invalid arguments')" } },
    ]);
    const [outcome] = await runNodeTests([broken], { evaluator });
    expect(outcome.status, outcome.failures.join("\n")).toBe("passed");
  });

  it("a step case whose fixture does not match fails with the fixture server's 404 in the output", async () => {
    const broken = withCases("http-request", [
      {
        name: "wrong fixture path",
        config: { baseUrl: "{{ fixture.url }}", method: "GET", path: "v1/users/", headers: {} },
        inputs: { trigger: true, path: "42" },
        fixtures: { http: [{ method: "GET", path: "/v1/other", body: {} }] },
        expect: { "has a status": "return output.status === 200" },
      },
    ]);
    const [outcome] = await runNodeTests([broken], { evaluator });
    expect(outcome.status).toBe("failed");
    expect(JSON.stringify(outcome.output)).toMatch(/no fixture for GET \/v1\/users\/42/);
  });

  it("hands agent cases to the runner it was given", async () => {
    const agent = catalogue.nodes.find((candidate) => candidate.manifest?.toolExchange && candidate.manifest.test);
    expect(agent).toBeDefined();
    const seen: string[] = [];
    const runAgent: AgentCaseRunner = async ({ manifest }) => {
      seen.push(manifest.interface.name);
      return { isError: true, message: "scripted failure" };
    };
    const outcomes = await runNodeTests([agent!], { evaluator, runAgent });
    expect(seen.length).toBe(outcomes.length);
    expect(outcomes.every((outcome) => outcome.output && (outcome.output as { message?: string }).message === "scripted failure")).toBe(true);
  });
});

describe("agent cases through the real agent path (resolveModel + the turn loop)", () => {
  it("every shipped agent case passes: the OpenAI-compatible agents (OpenAI, Gemini, Mistral, Ollama), anthropic-agent and offline-agent", async () => {
    const agents = catalogue.nodes.filter((candidate) => candidate.manifest?.toolExchange && candidate.manifest.test);
    const outcomes = await runNodeTests(agents, { evaluator, runAgent: agentCaseRunner() });
    const failures = describeFailures(outcomes);
    expect(failures, `failing agent cases:\n${failures}`).toBe("");
    expect(outcomes.map((outcome) => [outcome.node, outcome.status]).sort()).toEqual([
      ["anthropic-agent", "passed"],
      ["gemini-agent", "passed"],
      ["mistral-agent", "passed"],
      ["offline-agent", "passed"],
      ["ollama-agent", "passed"],
      ["openai-agent", "passed"],
    ]);
  });

  it("streams a case whose fixture gives events, through the shipped stream protocols", async () => {
    const openai = await shippedAgent("openai-agent", { streamed: true });
    const anthropic = await shippedAgent("anthropic-agent", { streamed: true });
    const chunk = (delta: Record<string, unknown>) => ({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }], usage: null });
    const streamedOpenAI = {
      ...node("openai-agent"),
      manifest: {
        ...node("openai-agent").manifest!,
        run: openai.run,
        toolExchange: openai.exchange,
        test: {
          testData: [
            testCase.parse({
              name: "streams its answer",
              config: { baseUrl: "{{ fixture.url }}/v1", model: "test-model" },
              inputs: { prompt: "Say hello." },
              fixtures: { http: [{ method: "POST", path: "/v1/chat/completions", events: [chunk({ role: "assistant", content: "" }), chunk({ content: "Hello " }), chunk({ content: "there!" }), { id: "c1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } }] }] },
              expect: { answers: "return output.answer === 'Hello there!'" },
            }),
          ],
        },
      },
    };
    const streamedAnthropic = {
      ...node("anthropic-agent"),
      manifest: {
        ...node("anthropic-agent").manifest!,
        run: anthropic.run,
        toolExchange: anthropic.exchange,
        test: {
          testData: [
            testCase.parse({
              name: "streams its answer",
              config: { baseUrl: "{{ fixture.url }}", model: "test-model" },
              inputs: { prompt: "Say hello." },
              credentials: { anthropic: { apiKey: "test-key" } },
              fixtures: {
                http: [
                  {
                    method: "POST",
                    path: "/v1/messages",
                    events: [
                      { type: "message_start", message: { id: "m1", type: "message", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
                      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
                      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello " } },
                      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "there!" } },
                      { type: "content_block_stop", index: 0 },
                      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
                      { type: "message_stop" },
                    ],
                  },
                ],
              },
              expect: { answers: "return output.answer === 'Hello there!'" },
            }),
          ],
        },
      },
    };
    const outcomes = await runNodeTests([streamedOpenAI, streamedAnthropic], { evaluator, runAgent: agentCaseRunner() });
    expect(describeFailures(outcomes)).toBe("");
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["passed", "passed"]);
  });

  it("a model API that refuses the request reaches the expectations as an isError output with its status and reason", async () => {
    const refused = withCases("openai-agent", [
      {
        name: "wrong key",
        config: { baseUrl: "{{ fixture.url }}/v1", model: "test-model" },
        inputs: { prompt: "Say hello." },
        fixtures: { http: [{ method: "POST", path: "/v1/chat/completions", status: 401, body: { error: { message: "Incorrect API key provided" } } }] },
        expect: { "is an error": "return output.isError === true && output.message.includes('401') && output.message.includes('Incorrect API key')" },
      },
    ]);
    const [outcome] = await runNodeTests([refused], { evaluator, runAgent: agentCaseRunner() });
    expect(outcome.status, `${outcome.failures.join("\n")}\n${JSON.stringify(outcome.output)}`).toBe("passed");
  });
});

