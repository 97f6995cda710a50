import type { CanvasProblem } from "@/lib/canvas";

/** Problems of a node or edge: severity, where they come from, code, message. */
export function ProblemItems({ problems, label }: { problems: readonly CanvasProblem[]; label: string }) {
  return (
    <ul className="problem-list" aria-label={label}>
      {problems.map((problem, index) => (
        <li key={`${problem.code}-${index}`} className={`problem problem-${problem.severity}`}>
          <span className="problem-severity">{problem.severity}</span> <code className="problem-rule">{problem.code}</code>{" "}
          {problem.source === "lint" ? <span className="muted small">(lint of the node type{problem.place ? `, ${problem.place}` : ""}) </span> : null}
          <span className="problem-message">{problem.message}</span>
        </li>
      ))}
    </ul>
  );
}
