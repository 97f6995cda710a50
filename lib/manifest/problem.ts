/** How bad a finding is: an error fails the lint (exit 1), a warning does not. */
export type Severity = "error" | "warning";

/**
 * One finding about the node manifests, always at a place a person can open:
 * `file:line:col severity rule-id message`.
 */
export interface Problem {
  /** Path relative to the folder above nodes/, e.g. `nodes/weather/api/service.yaml`. */
  file: string;
  /** 1-based line; 1 when the problem is about the whole file. */
  line: number;
  /** 1-based column. */
  column: number;
  severity: Severity;
  /** A stable id, e.g. `callback-kind`; see docs/nodes.md for the list. */
  rule: string;
  /** What is wrong and how to fix it. */
  message: string;
  /** The node the problem belongs to, when it belongs to one. */
  node?: string;
}

/** `file:line:col severity rule-id message`, the lint's line format. */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}:${problem.column} ${problem.severity} ${problem.rule} ${problem.message}`;
}

/** Problems in reading order: file, then line, then column. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule),
  );
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((problem) => problem.severity === "error");
}
