import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseTestCase, TestCaseError } from "../evals";
import { type CaseResult, casesDir, type CaseToRun } from "./test-cases";

/** A workflow's cases in the cases folder, and the files that could not be read (each with its file:line reason). */
export interface WorkflowCases {
  cases: CaseToRun[];
  problems: string[];
}

/**
 * The case files (*.case.json, *.case.yaml, in `dir`, default casesDir())
 * whose workflow id is `workflowId`. A file that does not parse is a
 * problem named with its place, not a case: it cannot be told whose it is.
 */
export async function workflowCases(workflowId: string, dir: string = casesDir()): Promise<WorkflowCases> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive: true })).filter((name) => /\.case\.(json|ya?ml)$/.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { cases: [], problems: [] };
    throw error;
  }
  const cases: CaseToRun[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const testCase = parseTestCase(await readFile(file, "utf8"), name);
      if (testCase.workflow.id === workflowId) cases.push({ file, testCase });
    } catch (error) {
      if (!(error instanceof TestCaseError)) throw error;
      problems.push(error.message);
    }
  }
  return { cases, problems };
}

/** One case's outcome as the editor shows it. */
export interface CaseOutcome {
  name: string;
  fileName: string;
  pass: boolean;
  /** The first divergent step's key (e.g. `agent#1/turn 1`), when the run diverged from the recorded one. */
  firstDivergence: string | null;
  /** The node of that step: the one the editor marks. */
  node: string | null;
  /** Why it failed, most telling first (the first divergence leads when there is one). */
  failures: string[];
  runId: string | null;
}

/** The node a step key names: `agent#1/turn 1` → `agent` (the top-level node of a nested key). */
export function stepKeyNode(key: string): string {
  return key.split("/")[0].replace(/#\d+$/, "");
}

/** A case result as the editor shows it: passed or failed, the first divergence and its node. */
export function caseOutcome(result: CaseResult): CaseOutcome {
  const diff = result.runDiff;
  const first = diff && diff.firstDivergence !== null ? diff.pairs[diff.firstDivergence] : null;
  const lines = first
    ? [`first divergence: ${first.key}${first.fields.length ? ` (${first.fields.map((field) => field.field).join(", ")} changed)` : first.state === "only-a" ? " (only in the recorded run)" : first.state === "only-b" ? " (not in the recorded run)" : ""}`]
    : [];
  return {
    name: result.name,
    fileName: path.basename(result.file),
    pass: result.pass,
    firstDivergence: first?.key ?? null,
    node: first ? stepKeyNode(first.key) : null,
    failures: result.pass ? [] : [...lines, ...result.failures],
    runId: result.runId,
  };
}
