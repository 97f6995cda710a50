import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type PrismaClient, readPinSource, cassetteInsert, readRunOutline, readWholeRunTrace, fromJsonText } from "../db";
import { credentialsFromEnvironment, environmentCredentialGate, resolveModel } from "../engine";
import { caseFileName, caseFileText, caseVerdict, type CaseVerdict, type JudgeRequest, type JudgeVerdict, missingNodes, modelJudge, PinError, pinRun, type ScoreContext, type Scorer, type StoredCassette, type TestCase } from "../evals";
import { lookupNodeType, parseWorkflow, type Workflow } from "../graph";
import { runNodeTypes } from "./run-environment";
import type { RunService } from "./run-service";
import { startWorkerRuntime } from "./worker-runtime";

/** Where kept cases are written: SWITCHBOARD_CASES_DIR, else tests/cases. */
export function casesDir(): string {
  return path.resolve(process.env.SWITCHBOARD_CASES_DIR ?? path.join(process.cwd(), "tests", "cases"));
}

/** Credential values from the server's environment: redacted from a case on top of what the trace redacted. */
function environmentSecrets(): string[] {
  return Object.entries(process.env)
    .filter(([name]) => name.startsWith("SWITCHBOARD_CREDENTIAL_") && !name.endsWith("_ORIGINS"))
    .map(([, value]) => value ?? "")
    .filter((value) => value.length >= 4);
}

/**
 * Keeps a finished run as a test case file (see pinRun for what it holds):
 * written to `dir` (default casesDir()) as `<name>.case.json`, never over
 * another file. Answers the case, its file and its text (the run page
 * offers the text as a download).
 *
 * @example const kept = await keepRunAsTest(prisma, runId, { name: "5 km in miles" }); kept.file // tests/cases/5-km-in-miles.case.json
 */
export async function keepRunAsTest(db: PrismaClient, runId: string, options: { name?: string; dir?: string; write?: boolean } = {}): Promise<{ testCase: TestCase; file: string; text: string }> {
  const source = await readPinSource(db, runId);
  if (!source) throw new PinError("run-not-found", `There is no run "${runId}".`);
  const testCase = pinRun(source, { name: options.name, nodeTypes: await runNodeTypes(), secrets: environmentSecrets() });
  const text = caseFileText(testCase);
  const dir = options.dir ?? casesDir();
  let file = path.join(dir, caseFileName(testCase.name));
  if (options.write !== false) {
    await mkdir(dir, { recursive: true });
    for (let attempt = 2; ; attempt++) {
      try {
        await writeFile(file, text, { flag: "wx" });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 99) throw error;
        file = path.join(dir, caseFileName(`${testCase.name} ${attempt}`));
      }
    }
  }
  return { testCase, file, text };
}

export interface CaseToRun {
  file: string;
  testCase: TestCase;
}

export interface RunCasesOptions {
  /** Ask the real model instead of the cassette. */
  liveModel?: boolean;
  /** Make calls the cassette lacks for real. */
  liveTools?: boolean;
  /** Cases run at once, at most (default 4). */
  parallel?: number;
  /** Run this document instead of each case's workflow's current one. */
  document?: unknown;
  by?: string;
  /** Each case's limit (default 5 minutes). */
  timeoutMs?: number;
}

export interface CaseResult extends CaseVerdict {
  file: string;
  name: string;
  runId: string | null;
  durationMs: number;
}

export interface RunCasesDependencies {
  service: RunService;
  prisma: PrismaClient;
  databaseUrl: string;
  nodesDir?: string;
  log?: (line: string) => void;
}

/**
 * Runs test cases as runs: each through the run service (origin test),
 * its cassette stored with the run, against its workflow's current
 * document (or `options.document`); a worker in this process takes them,
 * up to `parallel` at once. Each is judged once it ends (see caseVerdict);
 * a case whose document lacks a node its cassette needs fails at once,
 * naming it.
 */
export async function runTestCases(cases: readonly CaseToRun[], options: RunCasesOptions, deps: RunCasesDependencies): Promise<CaseResult[]> {
  const started: Array<{ item: CaseToRun; runId: string; document: Workflow; at: number } | CaseResult> = [];
  for (const item of cases) started.push(await startCase(item, options, deps));
  const runIds = started.flatMap((entry) => ("runId" in entry && "document" in entry ? [entry.runId] : []));
  const worker = runIds.length
    ? startWorkerRuntime({ databaseUrl: deps.databaseUrl, concurrency: Math.max(1, options.parallel ?? 4), onlyRuns: runIds, ticksSchedules: false, webhook: null, nodesDir: deps.nodesDir, log: deps.log })
    : null;
  try {
    return await Promise.all(
      started.map(async (entry) => {
        if (!("document" in entry)) return entry;
        await deps.service.wait(entry.runId, { timeoutMs: options.timeoutMs ?? 300_000, pollMs: 25 });
        // The verdict reads the run's outline; the whole trace only for a failure's diff.
        const trace = await readRunOutline(deps.prisma, entry.runId);
        const base = { file: entry.item.file, name: entry.item.testCase.name, runId: entry.runId, durationMs: Date.now() - entry.at };
        if (!trace) return { ...base, pass: false, failures: [`the run ${entry.runId} could not be read`], diff: null, runDiff: null };
        if (trace.run.status === "queued" || trace.run.status === "running") {
          await deps.service.cancel(entry.runId);
          return { ...base, pass: false, failures: [`the run did not end within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`], diff: null, runDiff: null };
        }
        const verdict = await caseVerdict(entry.item.testCase, trace, await caseJudges(entry.item.testCase, entry.document), () => readWholeRunTrace(deps.prisma, entry.runId));
        return { ...base, ...verdict };
      }),
    );
  } finally {
    await worker?.stop({ handBack: true });
  }
}

async function startCase(item: CaseToRun, options: RunCasesOptions, deps: RunCasesDependencies): Promise<{ item: CaseToRun; runId: string; document: Workflow; at: number } | CaseResult> {
  const at = Date.now();
  const fail = (failures: string[]): CaseResult => ({ file: item.file, name: item.testCase.name, runId: null, durationMs: Date.now() - at, pass: false, failures, diff: null, runDiff: null });
  const { testCase } = item;
  let document = options.document;
  if (document === undefined) {
    if (!testCase.workflow.id) return fail(["the case names no saved workflow: give the document to run (--document FILE)"]);
    const row = await deps.prisma.workflow.findUnique({ where: { id: testCase.workflow.id }, select: { document: true } });
    if (!row) return fail([`there is no workflow "${testCase.workflow.id}" in this database`]);
    document = fromJsonText(row.document);
  }
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return fail([`the document is not a workflow: ${parsed.problems[0]?.message ?? "unreadable"}`]);
  const missing = missingNodes(testCase, parsed.workflow);
  if (missing.length) return fail(missing);
  const runId = randomUUID();
  const cassette: StoredCassette = {
    caseName: testCase.name,
    nodes: testCase.nodes,
    assertions: { toolCalls: testCase.assertions.toolCalls, modelRequests: testCase.assertions.modelRequests },
    live: { model: options.liveModel === true, tools: options.liveTools === true },
  };
  const result = await deps.service.start(
    { workflowId: testCase.workflow.id, document: parsed.workflow, input: testCase.input, origin: { kind: "test", ...(options.by ? { by: options.by } : {}) }, runId },
    { together: [cassetteInsert(runId, cassette, new Date())] },
  );
  if (!result.ok) return fail([`the run was refused: ${result.field ? `${result.field}: ` : ""}${result.error}`]);
  return { item, runId, document: parsed.workflow, at };
}

/** What a case's judges ask (see judgeContext). */
export async function caseJudges(testCase: TestCase, document: Workflow): Promise<ScoreContext> {
  return judgeContext(testCase.assertions.outputs, document);
}

/**
 * What the judges among these scorers (a case's, or a dataset evaluation's) ask: the model of the agent node a judge names
 * (`modelNode`), else of the document's first agent, resolved as the node
 * would resolve it (its adapter, its configured model; its API key from
 * the server's environment).
 */
export async function judgeContext(scorers: readonly Scorer[], document: Workflow): Promise<ScoreContext> {
  const judges = scorers.filter((scorer) => scorer.kind === "judge");
  if (judges.length === 0) return {};
  const nodeTypes = await runNodeTypes();
  const { createLocalEnvironment } = await import("./local-environment");
  const env = await createLocalEnvironment();
  const byNode = new Map<string, (request: JudgeRequest) => Promise<JudgeVerdict>>();
  const judgeOf = (nodeId: string | undefined) => {
    const node = nodeId ? document.nodes.find((candidate) => candidate.id === nodeId) : document.nodes.find((candidate) => lookupNodeType(nodeTypes, candidate.type)?.hasToolExchange);
    if (!node) throw new Error(nodeId ? `the judge's model node "${nodeId}" is not in the document` : "the document has no agent node whose model could judge");
    const manifest = env.catalogue.nodes.find((candidate) => candidate.manifest?.interface.name === node.type)?.manifest;
    if (!manifest?.toolExchange) throw new Error(`node "${node.id}" is not an agent: a judge needs an agent node's model`);
    const known = byNode.get(node.id);
    if (known) return known;
    const config = { ...Object.fromEntries(Object.entries(manifest.config?.configSchema.properties ?? {}).flatMap(([name, property]) => (property.default === undefined ? [] : [[name, property.default]]))), ...node.config };
    const credentials = credentialsFromEnvironment(manifest.interface.credentials, process.env, environmentCredentialGate(env.catalogue, node.type));
    const protocol = resolveModel({ nodeId: node.id, manifest, exchange: manifest.toolExchange, config, callContext: { evaluator: env.evaluator, credentials, allowedOrigins: env.allowedPrivateOrigins } });
    const judge = modelJudge(protocol, config);
    byNode.set(node.id, judge);
    return judge;
  };
  // One judge per scorer: the scorer's modelNode picks the model.
  return {
    judge: async (request) => {
      const scorer = judges.find((candidate) => candidate.kind === "judge" && candidate.rubric === request.rubric);
      return judgeOf(scorer?.kind === "judge" ? scorer.modelNode : undefined)(request);
    },
  };
}
