import Link from "next/link";
import { prettyJson } from "@/components/run/json-block";
import type { WaitingApproval } from "@/lib/trace/browser";
import { argumentLeaves } from "./argument-leaves";
import styles from "./approvals.module.css";

/**
 * A waiting call's arguments, one row per value, the tainted ones marked with
 * where they came from: the tainted tool result (its trace row) whose text
 * holds the value, or, when none holds it verbatim, that the agent had read
 * tainted content before writing it.
 */
export function TaintedArgumentTable({ approval }: { approval: WaitingApproval }) {
  const { request, runId } = approval;
  const leaves = argumentLeaves(request.arguments, request.approval.tainted);
  return (
    <table className={styles.arguments} aria-label={`Arguments of ${request.tool}`}>
      <thead>
        <tr>
          <th scope="col">Argument</th>
          <th scope="col">Value</th>
          <th scope="col">Taint</th>
        </tr>
      </thead>
      <tbody>
        {leaves.map((leaf) => (
          <tr key={leaf.path} className={leaf.tainted ? styles.taintedRow : undefined}>
            <th scope="row">
              <code>{leaf.path}</code>
            </th>
            <td>{leaf.tainted ? <mark className={styles.taintedValue}>{prettyJson(leaf.value)}</mark> : <code>{prettyJson(leaf.value)}</code>}</td>
            <td>
              {!leaf.tainted ? (
                <span className="muted">clean</span>
              ) : leaf.tainted.foundIn.length === 0 ? (
                <>
                  <span className="badge badge-warning">tainted</span> <span className="small">the agent had read outside content before writing it</span>
                </>
              ) : (
                <>
                  <span className="badge badge-warning">tainted</span> <span className="small">from </span>
                  {leaf.tainted.foundIn.map((source, index) => (
                    <span key={source.origin} className="small">
                      {index > 0 ? ", " : null}
                      <Link href={`/runs/${encodeURIComponent(runId)}?call=${encodeURIComponent(source.origin)}`} aria-label={`The ${source.server}/${source.tool} result ${leaf.path} came from: open in the trace`}>
                        {source.server}/{source.tool}
                      </Link>
                    </span>
                  ))}
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
