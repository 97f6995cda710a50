import type { Metadata } from "next";
import Link from "next/link";
import { RunForm } from "@/components/run/run-form";
import { RunList } from "@/components/run/run-list";
import styles from "@/components/run/run.module.css";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError, getWorkflow, listRecentRuns, listRuns, listWorkflows, prisma, readRunTotals } from "@/lib/db";
import type { RunSummary } from "@/lib/trace/run-trace";
import { parseWorkflow, readFields, type InputField } from "@/lib/graph";
import { startRun } from "@/app/actions/runs";
import { may, requirePageRole } from "@/lib/auth/require-role";

// Runs come and go: read on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Runs" };

/**
 * /runs?workflow=<id>: one workflow's runs, newest first, and a form to run
 * it. /runs: the newest runs of every workflow.
 */
export default async function RunsPage({ searchParams }: { searchParams: Promise<{ workflow?: string | string[] }> }) {
  const actor = await requirePageRole("viewer", "/runs");
  const { workflow } = await searchParams;
  const workflowId = Array.isArray(workflow) ? workflow[0] : workflow;
  try {
    return workflowId ? await WorkflowRuns({ workflowId, canRun: may(actor, "runner") }) : await AllRuns();
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

async function WorkflowRuns({ workflowId, canRun }: { workflowId: string; canRun: boolean }) {
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
  const runs = await listRuns(record.id);
  const totals = await totalsOf(runs);
  return (
    <>
      <div className="page-heading">
        <h1>Runs of {record.name}</h1>
        <p className="lead">Every run of this workflow, newest first. Open one to read its trace: each tool call with its arguments and result.</p>
      </div>
      <div className={styles.runsLayout}>
        {canRun ? <RunForm workflowId={record.id} fields={startFields(record.document)} startRun={startRun} /> : null}
        <RunList runs={runs} now={new Date().toISOString()} label={`Runs of ${record.name}`} totals={totals} />
      </div>
    </>
  );
}

async function AllRuns() {
  const [runs, workflows] = await Promise.all([listRecentRuns({ limit: 50 }), listWorkflows()]);
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
