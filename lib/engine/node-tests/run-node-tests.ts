import { type CatalogueNode, type NodeManifest, type TestCase, configValues, checkArguments } from "../../manifest";
import { renderValue, type Evaluator } from "../../sandbox";
import { invokeMethod, type RunFacts, runStep, type Credentials, startFixtureServer } from "../../calls";

export interface CaseOutcome {
  node: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  /** For failed cases: each expectation that did not hold, and why. */
  failures: string[];
  /** What the node produced, as the expectations saw it. */
  output?: unknown;
}

/** Runs an agent node's case (see agentCaseRunner in run-agent-case.ts). */
export type AgentCaseRunner = (input: {
  manifest: NodeManifest;
  config: Record<string, unknown>;
  inputs: Record<string, unknown>;
  credentials: Credentials;
  evaluator: Evaluator;
  /** The case's fixture server: the one private origin the agent may reach. */
  allowedOrigins: readonly string[];
}) => Promise<{ outputs: Record<string, unknown> } | { isError: true; message: string }>;

export interface NodeTestOptions {
  evaluator: Evaluator;
  runAgent?: AgentCaseRunner;
  /** Run the cases marked `live: true` (they reach the real API) instead of skipping them. */
  live?: boolean;
}

/**
 * Runs the test.yaml cases of the given nodes. Each case gets its own
 * fixture server on 127.0.0.1 (`{{ fixture.url }}`); calls may reach that
 * one origin on loopback, and no other private address.
 */
export async function runNodeTests(nodes: readonly CatalogueNode[], options: NodeTestOptions): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const node of nodes) {
    for (const testCase of node.manifest?.test?.testData ?? []) {
      outcomes.push(await runCase(node.name, node.manifest as NodeManifest, testCase, options));
    }
  }
  return outcomes;
}

async function runCase(node: string, manifest: NodeManifest, testCase: TestCase, options: NodeTestOptions): Promise<CaseOutcome> {
  if (testCase.live && !options.live) return { node, name: testCase.name, status: "skipped", failures: ["needs the live API (run with --live and real credentials)"] };
  const server = await startFixtureServer(
    (testCase.fixtures?.http ?? []).map((reply) => ({ ...reply, method: reply.method ?? "GET" })),
  );
  try {
    const scope = { fixture: { url: server.url } };
    // Template fields keep their template: the node fills them from its inputs when it runs.
    const properties = manifest.config?.configSchema.properties ?? {};
    const templated = Object.fromEntries(Object.entries(testCase.config).filter(([name]) => properties[name]?.["ui:field"] === "template"));
    const plain = Object.fromEntries(Object.entries(testCase.config).filter(([name]) => !(name in templated)));
    const given = (await renderValue({ config: plain, inputs: testCase.inputs, credentials: testCase.credentials }, scope, options.evaluator)) as {
      config: Record<string, unknown>;
      inputs: Record<string, unknown>;
      credentials: Credentials;
    };
    const config = configValues(manifest.config, { ...given.config, ...templated });
    // Only the fixture server may be reached on loopback; every other private address stays refused.
    // Each case is a run of its own: its loops start empty.
    const context = { evaluator: options.evaluator, credentials: given.credentials, allowedOrigins: [server.url], loops: new Map() };
    let output: unknown;
    if (testCase.call) {
      const method = manifest.service?.[testCase.call.method];
      if (!method) return failed(node, testCase, [`no method '${testCase.call.method}' in api/service.yaml`]);
      const params = await renderValue(testCase.call.params, scope, options.evaluator);
      const checked = checkArguments(method.inputs, params);
      if (!checked.ok) {
        output = { isError: true, message: `invalid arguments: ${checked.message}` };
      } else {
        const result = await invokeMethod(method, { params: checked.value, config, user: testCase.user ?? null, run: testRun(node, testCase) }, context);
        output = result.isError ? result : (result.structured ?? result.value);
      }
    } else if (manifest.toolExchange) {
      if (!options.runAgent) return { node, name: testCase.name, status: "skipped", failures: ["agent cases need the agent loop, which this runner was not given"] };
      const result = await options.runAgent({ manifest, config, inputs: given.inputs, credentials: given.credentials, evaluator: options.evaluator, allowedOrigins: context.allowedOrigins });
      output = "outputs" in result ? result.outputs : result;
    } else if (manifest.run || manifest.events) {
      const result = await runStep({ run: manifest.run ?? [], events: manifest.events, config: manifest.config }, { config, inputs: given.inputs, user: testCase.user ?? null, run: testRun(node, testCase) }, context);
      output = result.ok ? result.outputs : { isError: true, message: result.message };
    } else {
      return failed(node, testCase, ["the case has no call and the node does not run as a step"]);
    }
    const failures = await checkExpectations(testCase.expect, output, options.evaluator);
    return { node, name: testCase.name, status: failures.length ? "failed" : "passed", failures, output };
  } catch (error) {
    return failed(node, testCase, [`the case could not run: ${(error as Error).message}`]);
  } finally {
    await server.close();
  }
}

function failed(node: string, testCase: TestCase, failures: string[]): CaseOutcome {
  return { node, name: testCase.name, status: "failed", failures };
}

async function checkExpectations(expect: Record<string, string>, output: unknown, evaluator: Evaluator): Promise<string[]> {
  const failures: string[] = [];
  for (const [label, expression] of Object.entries(expect)) {
    try {
      const held = await renderValue(expression, { output }, evaluator);
      if (held !== true) failures.push(`${label}: \`${expression}\` gave ${JSON.stringify(held)}`);
    } catch (error) {
      failures.push(`${label}: \`${expression}\` failed: ${(error as Error).message}`);
    }
  }
  return failures;
}

/** The `run` root a case sees: a run of its own, outside any saved workflow. */
function testRun(node: string, testCase: TestCase): RunFacts {
  return { id: `test:${node}:${testCase.name}`, workflowId: null, nodeId: node, startedBy: typeof testCase.user?.email === "string" ? testCase.user.email : null };
}
