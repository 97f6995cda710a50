import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth";
import { listWorkflows, getWorkflow } from "@/lib/db/app";
import { parseWorkflow, startFields, startTrigger } from "@/lib/graph";
import { appOrigin } from "@/lib/mcp";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "HTTP API" };

/** An example input for a Start's fields: a placeholder per field, typed. */
function exampleInput(fields: ReturnType<typeof startFields>): Record<string, unknown> {
  const sample: Record<string, unknown> = { string: "…", number: 1, boolean: true, object: {}, array: [], any: null };
  return Object.fromEntries(fields.filter((field) => field.required).map((field) => [field.name, sample[field.type]]));
}

/**
 * /api-access: how to start a workflow from anywhere. A curl line per
 * workflow (POST /api/workflows/<id>/runs with a personal token), the
 * OpenAPI document, and how to follow a run.
 */
export default async function ApiAccessPage() {
  await requirePageRole("viewer", "/api-access");
  const origin = appOrigin() ?? "http://127.0.0.1:3000";
  const workflows = await Promise.all((await listWorkflows()).map(async (summary) => ({ summary, record: await getWorkflow(summary.id) })));
  return (
    <>
      <div className="page-heading">
        <h1>HTTP API</h1>
        <p className="lead">
          Start runs from scripts, other services and CI. Make a personal token on <Link href="/tokens">Tokens</Link> (it acts with your role: a runner or higher starts runs), set it as{" "}
          <code>SWITCHBOARD_TOKEN</code>, and send the line of the workflow you want. The answer is <code>202</code> with the run&apos;s id and links; follow it with{" "}
          <code>GET /api/runs/&lt;id&gt;</code> or its Server-Sent Events at <code>/api/runs/&lt;id&gt;/events</code>. The whole API is described by its{" "}
          <a href="/api/openapi.json">OpenAPI 3.1 document</a>.
        </p>
      </div>
      <section aria-labelledby="api-workflows">
        <h2 id="api-workflows">Start a run</h2>
        <p className="small">
          An <code>Idempotency-Key</code> makes a retry safe: the same key (per token, for 24 hours) answers the run the first request started. A bad input is answered <code>400</code> naming the field.
        </p>
        <ul className="api-lines">
          {workflows.map(({ summary, record }) => {
            const parsed = record ? parseWorkflow(record.document) : null;
            const start = parsed?.ok ? parsed.workflow.nodes.find((node) => node.type === "start") : undefined;
            const body = JSON.stringify({ input: start ? exampleInput(startFields(start.config)) : {} });
            const line = `curl -X POST '${origin}/api/workflows/${summary.id}/runs' -H "Authorization: Bearer $SWITCHBOARD_TOKEN" -H 'Content-Type: application/json' -H "Idempotency-Key: $(uuidgen)" --data '${body}'`;
            return (
              <li key={summary.id}>
                <h3>
                  <Link href={`/workflows/${encodeURIComponent(summary.id)}`}>{summary.name}</Link>
                  {start && startTrigger(start.config) !== "manual" ? <span className="small muted"> (its Start is on {startTrigger(start.config)}; the API starts it with that trigger&apos;s fields)</span> : null}
                </h3>
                <pre className="code-block" aria-label={`curl line for ${summary.name}`}>
                  <code>{line}</code>
                </pre>
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
