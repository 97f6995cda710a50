import Link from "next/link";
import { notFound } from "next/navigation";
import { setTriggersPausedAction } from "@/app/actions/triggers";
import { TriggersPauseSwitch } from "@/components/workflows/triggers-pause-switch";
import { ErrorNotice } from "@/components/ui/error-notice";
import { may, requirePageRole } from "@/lib/auth";
import { DatabaseError, TriggerStore } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { parseWorkflow, startTrigger } from "@/lib/graph";
import { runService } from "@/lib/runs";

export const dynamic = "force-dynamic";

const describeTrigger: Record<string, string> = { manual: "by hand or through the API", webhook: "on webhook", schedule: "on schedule" };

/**
 * A workflow's triggers: how its Start is started, one switch that pauses
 * every webhook and schedule trigger, and each webhook delivery, accepted
 * or refused, with its status, reason and run.
 */
export default async function WorkflowTriggersPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageRole("viewer", `/workflows/${id}/triggers`);
  const store = new TriggerStore(runService().db);
  let record, deliveries, triggers, paused;
  try {
    [record, deliveries, triggers, paused] = await Promise.all([getWorkflow(id), store.deliveries(id), store.triggers(id), store.paused(id)]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The triggers cannot be read">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  const parsed = parseWorkflow(record.document);
  const start = parsed.ok ? parsed.workflow.nodes.find((node) => node.type === "start") : undefined;
  const trigger = start ? startTrigger(start.config) : "manual";
  return (
    <main className="page">
      <p>
        <Link href={`/workflows/${encodeURIComponent(id)}`}>Back to the canvas of “{record.name}”</Link>
      </p>
      <h1>Triggers of “{record.name}”</h1>
      <p>
        Its Start runs <strong>{describeTrigger[trigger]}</strong>
        {start && trigger === "webhook" && start.config.signature === "none" ? <strong className="notice-warning"> with no signature check: anyone with the URL starts runs</strong> : null}. Change it in the Start&apos;s inspector on the canvas.
      </p>
      <TriggersPauseSwitch workflowId={id} paused={paused} canChange={may(actor, "editor")} setPaused={setTriggersPausedAction} />
      {triggers.length > 0 ? (
        <ul>
          {triggers.map((row) => (
            <li key={row.triggerId}>
              {row.kind === "webhook" ? (
                row.hookIdHint ? (
                  <>
                    Webhook of <code>{row.nodeId}</code>: <code>/api/hooks/…{row.hookIdHint}</code> (the whole URL was shown once; make a new one in the Start&apos;s inspector)
                  </>
                ) : (
                  <>Webhook of {row.nodeId}: no URL yet</>
                )
              ) : (
                <>
                  Schedule of <code>{row.nodeId}</code>: last tick {row.lastTickAt ? <time dateTime={row.lastTickAt}>{row.lastTickAt}</time> : "none yet"}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Webhook deliveries</h2>
        {deliveries.length === 0 ? (
          <p className="muted">No delivery yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="parameter-table">
              <caption>Newest first: accepted, repeated and refused, with the reason</caption>
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Delivery id</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Run</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <time dateTime={delivery.receivedAt}>{delivery.receivedAt.replace("T", " ").slice(0, 19)}</time>
                    </td>
                    <td>{delivery.deliveryId ? <code>{delivery.deliveryId}</code> : <span className="muted">none</span>}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.reason ?? (delivery.runId ? "accepted" : "")}</td>
                    <td>{delivery.runId ? <Link href={`/runs/${delivery.runId}`}>{delivery.runId.slice(0, 8)}</Link> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
