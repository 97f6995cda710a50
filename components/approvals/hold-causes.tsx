import Link from "next/link";
import type { WaitingApproval } from "@/lib/trace/browser";
import styles from "./approvals.module.css";

const causeLabels = { destructive: "destructive tool", "tainted-context": "tainted context", policy: "policy" } as const;

/**
 * Why a call was held, as badges: the tool is destructive, the agent's
 * context is tainted (with a link to each trace row the outside content came
 * from), or a policy asks. A request recorded before causes were kept shows
 * its rule instead.
 */
export function HoldCauses({ approval }: { approval: WaitingApproval }) {
  const { request, runId } = approval;
  const causes = request.approval.causes ?? [request.approval.rule === "destructive" ? "destructive" : request.approval.rule === "taintedWrite" ? "tainted-context" : "policy"];
  const context = request.approval.taintedContext ?? [];
  return (
    <ul className={styles.causes} aria-label={`Why ${request.tool} was held`}>
      {causes.map((cause) => (
        <li key={cause}>
          <span className={cause === "policy" ? "badge" : "badge badge-warning"}>{causeLabels[cause]}</span>
          {cause === "tainted-context" && context.length > 0 ? (
            <span className="small">
              {" "}
              from{" "}
              {context.map((source, index) => (
                <span key={source.origin}>
                  {index > 0 ? ", " : null}
                  <Link href={`/runs/${encodeURIComponent(runId)}?call=${encodeURIComponent(source.origin)}`} aria-label={`The tainted result ${source.server && source.tool ? `of ${source.server}/${source.tool} ` : ""}in the agent's context: open in the trace`}>
                    {source.server && source.tool ? `${source.server}/${source.tool}` : `row ${source.origin.slice(0, 8)}`}
                  </Link>
                </span>
              ))}
            </span>
          ) : null}
          {cause === "policy" ? <span className="small"> set at {request.approval.setAt}</span> : null}
        </li>
      ))}
    </ul>
  );
}
