import { countProblems } from "./problem-list";
import type { Catalogue } from "@/lib/manifest/browser";

/** N nodes, N errors, N warnings: the lint's verdict at a glance. */
export function CatalogueSummary({ catalogue }: { catalogue: Catalogue }) {
  const { errors, warnings } = countProblems(catalogue.problems);
  const stats = [
    { label: catalogue.nodes.length === 1 ? "node" : "nodes", value: catalogue.nodes.length, tone: "neutral" },
    { label: errors === 1 ? "error" : "errors", value: errors, tone: errors > 0 ? "error" : "ok" },
    { label: warnings === 1 ? "warning" : "warnings", value: warnings, tone: warnings > 0 ? "warning" : "ok" },
  ];
  return (
    <ul className="stats" aria-label="Lint summary">
      {stats.map((stat) => (
        <li key={stat.label} className={`stat stat-${stat.tone}`}>
          <span className="stat-value">{stat.value}</span> <span className="stat-label">{stat.label}</span>
        </li>
      ))}
    </ul>
  );
}
