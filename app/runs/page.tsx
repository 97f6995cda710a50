import type { Metadata } from "next";
import Link from "next/link";
import { RunForm } from "@/components/run/run-form";
import { RunList } from "@/components/run/run-list";
import styles from "@/components/run/run.module.css";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError, readRunTotals } from "@/lib/db";
import { getWorkflow, listRecentRuns, listRuns, listWorkflows, prisma } from "@/lib/db/app";
import type { RunSummary } from "@/lib/trace";
import { parseWorkflow, readFields, type InputField } from "@/lib/graph";
import { startRun } from "@/app/actions/runs";
import { may, requirePageRole } from "@/lib/auth";
import { isRunOriginKind, runOriginKinds, runOriginLabels, type RunOriginKind } from "@/lib/run-model";

// Runs come and go: read on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Runs" };

/**
 * /runs?workflow=<id>: one workflow's runs, newest first, and a form to run
 * it. /runs: the newest runs of every workflow.
 */
export default async function RunsPage({ searchParams }: { searchParams: Promise<{ workflow?: string | string[]; origin?: string | string[] }> }) {
  const actor = await requirePageRole("viewer", "/runs");
  const { workflow, origin } = await searchParams;
  const workflowId = Array.isArray(workflow) ? workflow[0] : workflow;
  const wanted = Array.isArray(origin) ? origin[0] : origin;
  const originKind = isRunOriginKind(wanted) ? wanted : undefined;
  try {
    return workflowId ? await WorkflowRuns({ workflowId, canRun: may(actor, "runner"), originKind }) : await AllRuns({ originKind });
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <div className="page-heading">
          <h1>Runs</h1>
        </div>
        <ErrorNotice title="The runs cannot be listed">{error.message}</ErrorNotice>
      </>
    );
  }
}

async function WorkflowRuns({ workflowId, canRun, originKind }: { workflowId: string; canRun: boolean; originKind?: RunOriginKind }) {
  const record = await getWorkflow(workflowId);
  if (!record) {
    return (
      <>
        <div className="page-heading">
          <h1>Runs</h1>
        </div>
        <ErrorNotice title={`There is no workflow "${workflowId}"`}>
          It may have been deleted. <Link href="/runs">See all recent runs</Link>.
        </ErrorNotice>
      </>
    );
  }
  const runs = await listRuns(record.id, { originKind });
  const totals = await totalsOf(runs);
  return (
    <>
      <div className="page-heading">
        <h1>Runs of {record.name}</h1>
        <p className="lead">Every run of this workflow, newest first. Open one to read its trace: each tool call with its arguments and result.</p>
      </div>
      <OriginFilter chosen={originKind} base={`/runs?workflow=${encodeURIComponent(record.id)}&`} />
      <div className={styles.runsLayout}>
        {canRun ? <RunForm workflowId={record.id} fields={startFields(record.document)} startRun={startRun} /> : null}
        <RunList runs={runs} now={new Date().toISOString()} label={`Runs of ${record.name}`} totals={totals} />
      </div>
    </>
  );
}

async function AllRuns({ originKind }: { originKind?: RunOriginKind }) {
  const [runs, workflows] = await Promise.all([listRecentRuns({ limit: 50, originKind }), listWorkflows()]);
  const totals = await totalsOf(runs);
  return (
    <>
      <div className="page-heading">
        <h1>Runs</h1>
        <p className="lead">
          The newest runs of every workflow. Choose a workflow to see all its runs and to run it, or <Link href="/runs/compare">compare two runs</Link>.
        </p>
      </div>
      {workflows.length > 0 ? (
        <nav aria-label="Runs by workflow" className={styles.runsByWorkflow}>
          <ul className="chips">
            {workflows.map((item) => (
              <li key={item.id}>
                <Link className="chip" href={`/runs?workflow=${encodeURIComponent(item.id)}`}>
                  {item.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <OriginFilter chosen={originKind} base="/runs?" />
      <RunList runs={runs} now={new Date().toISOString()} label="Recent runs" showWorkflow totals={totals} />
    </>
  );
}

/** Turns and tokens of the listed runs, by run id (two grouped queries). */
async function totalsOf(runs: readonly RunSummary[]) {
  return Object.fromEntries(await readRunTotals(prisma(), runs.map((run) => run.id)));
}

/** The Start's input fields; none when the document does not parse (startRun then says why). */
function startFields(document: unknown): InputField[] {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return [];
  const start = parsed.workflow.nodes.find((node) => node.type === "start");
  return start ? readFields(start.config.inputs) : [];
}

/** Runs by how they started: every way in, or all. */
function OriginFilter({ chosen, base }: { chosen?: RunOriginKind; base: string }) {
  return (
    <nav aria-label="Runs by how they started" className={styles.runsByWorkflow}>
      <ul className="chips">
        <li>
          <Link className="chip" href={base.replace(/[?&]$/, "")} aria-current={chosen ? undefined : "page"}>
            Started any way
          </Link>
        </li>
        {runOriginKinds.map((kind) => (
          <li key={kind}>
            <Link className="chip" href={`${base}origin=${kind}`} aria-current={chosen === kind ? "page" : undefined}>
              {runOriginLabels[kind]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
