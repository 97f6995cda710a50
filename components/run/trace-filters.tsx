"use client";

import { useId } from "react";
import type { ToolTotal, TraceFilters as Filters } from "@/lib/trace/browser";
import { plural } from "./format";
import styles from "./run.module.css";

export interface TraceFiltersProps {
  filters: Filters;
  onChange: (filters: Filters) => void;
  nodeIds: readonly string[];
  /** Every tool the run called, with its totals (counted by the database). */
  tools: readonly ToolTotal[];
  matchingCalls: number;
  totalCalls: number;
}

/** Narrow the trace by node, by tool (each with its number of calls), and to errors; says how many calls are left. */
export function TraceFilters({ filters, onChange, nodeIds, tools, matchingCalls, totalCalls }: TraceFiltersProps) {
  const id = useId();
  const active = filters.nodeId !== "" || filters.tool !== "" || filters.errorsOnly;
  return (
    <div className={styles.filters} role="group" aria-label="Filter the trace">
      <div className={styles.filter}>
        <label htmlFor={`${id}-node`}>Node</label>
        <select id={`${id}-node`} value={filters.nodeId} onChange={(event) => onChange({ ...filters, nodeId: event.target.value })}>
          <option value="">All nodes</option>
          {nodeIds.map((nodeId) => (
            <option key={nodeId} value={nodeId}>
              {nodeId}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.filter}>
        <label htmlFor={`${id}-tool`}>Tool</label>
        <select id={`${id}-tool`} value={filters.tool} onChange={(event) => onChange({ ...filters, tool: event.target.value })}>
          <option value="">All tools</option>
          {tools.map(({ tool, calls }) => (
            <option key={tool} value={tool}>
              {tool} ({calls.toLocaleString("en-US")})
            </option>
          ))}
        </select>
      </div>
      <div className={`${styles.filter} ${styles.filterCheck}`}>
        <input id={`${id}-errors`} type="checkbox" checked={filters.errorsOnly} onChange={(event) => onChange({ ...filters, errorsOnly: event.target.checked })} />
        <label htmlFor={`${id}-errors`}>Errors only</label>
      </div>
      {active ? (
        <button type="button" className={styles.clearFilters} onClick={() => onChange({ nodeId: "", tool: "", errorsOnly: false })}>
          Clear filters
        </button>
      ) : null}
      <p className={styles.filterCount} role="status">
        {active ? `${matchingCalls.toLocaleString("en-US")} of ${plural(totalCalls, "tool call")} match` : plural(totalCalls, "tool call")}
      </p>
    </div>
  );
}
