import type { Problem } from "@/lib/manifest/browser";

/**
 * Lint problems, one per line, in the lint's own format
 * (`file:line:col severity rule-id message`) so a line can be copied as is.
 */
export function ProblemList({ problems, label }: { problems: Problem[]; label: string }) {
  return (
    <ul className="problem-list" aria-label={label}>
      {problems.map((problem, index) => (
        <li key={`${problem.file}:${problem.line}:${problem.column}:${problem.rule}:${index}`} className={`problem problem-${problem.severity}`}>
          <code className="problem-place">
            {problem.file}:{problem.line}:{problem.column}
          </code>{" "}
          <span className="problem-severity">{problem.severity}</span> <code className="problem-rule">{problem.rule}</code>{" "}
          <span className="problem-message">{problem.message}</span>
        </li>
      ))}
    </ul>
  );
}

export function countProblems(problems: readonly Problem[]): { errors: number; warnings: number } {
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return { errors, warnings: problems.length - errors };
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
