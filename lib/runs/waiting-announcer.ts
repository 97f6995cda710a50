/**
 * Tells the team's webhook (if one is set) that a run started waiting for a
 * person. Not server-only: the worker (scripts/worker.ts) runs it outside Next.
 */
import { claimWaitingNotice, listWaitingApprovals, type SqlDatabase } from "../db";
import { sendWaitingWebhook, waitingNotice, type WebhookSettings } from "../notify";

/**
 * Sends the notice for the call run `runId` waits on, at most once per
 * waiting call: the notice is claimed in the run's journal before it is
 * sent, so a second worker, a resume or a retry never sends it again (a
 * send that failed is logged, not retried). Never throws.
 */
export async function announceWaitingCall(db: SqlDatabase, runId: string, settings: WebhookSettings, log: (line: string) => void): Promise<void> {
  try {
    const waiting = (await listWaitingApprovals(db)).find((candidate) => candidate.runId === runId);
    if (!waiting || !(await claimWaitingNotice(db, runId, waiting.request.key))) return;
    const result = await sendWaitingWebhook(settings, waitingNotice(waiting, settings.appUrl));
    if (!result.ok) log(`run ${runId}: ${result.error}; the call waits on the Approvals page all the same`);
  } catch (error) {
    log(`run ${runId}: the waiting notice could not be prepared (${(error as Error).message.split("\n")[0]})`);
  }
}
