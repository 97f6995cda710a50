/**
 * The approval commands of `npm run workflow` (see scripts/workflow.ts):
 *   approvals [--json]                                  → every call waiting for approval, across runs
 *   approve CALL_ID [--arguments JSON] [--by NAME]      → approves it (with edited arguments, checked against the tool's schema)
 *   deny CALL_ID --reason TEXT [--by NAME]              → denies it; the model receives the reason
 * Waits past their policy's deadline are denied first. A worker then takes the run up again.
 */
import { parseArgs } from "node:util";
import { type DecisionInput, databaseUrl, checkRunDatabase } from "../lib/db";
import { closeProcessRuns, runService } from "../lib/runs";
import { decisionActor } from "../lib/policy";

export class ApprovalUsageError extends Error {}

export async function runApprovalCommand(command: "approvals" | "approve" | "deny", args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: "boolean", default: false }, arguments: { type: "string" }, reason: { type: "string" }, by: { type: "string" } }, allowPositionals: true });
  const problem = await checkRunDatabase(databaseUrl());
  if (problem) throw new ApprovalUsageError(problem);
  const runs = runService();
  try {
    if (command === "approvals") {
      const waiting = await runs.waitingApprovals();
      const list = waiting.map((wait) => ({ callId: wait.callId, runId: wait.runId, agent: wait.request.nodeId, tool: `${wait.request.server}/${wait.request.tool}`, arguments: wait.request.arguments, tainted: wait.request.approval.tainted, policy: { ...wait.request.approval.policy, setAt: wait.request.approval.setAt }, reason: wait.request.approval.reason, since: wait.request.approval.since, deadline: wait.deadline }));
      if (values.json) console.log(JSON.stringify({ approvals: list }));
      else if (!list.length) console.log("No call waits for approval.");
      else for (const item of list) console.log(`${item.callId}  ${item.agent} → ${item.tool} ${JSON.stringify(item.arguments)}\n  ${item.reason} (policy set at ${item.policy.setAt}; denied at ${item.deadline} if nobody decides)`);
      return 0;
    }
    const callId = positionals[0];
    if (!callId) throw new ApprovalUsageError(`usage: npm run workflow -- ${command} CALL_ID ${command === "approve" ? "[--arguments JSON]" : "--reason TEXT"}`);
    const by = decisionActor({ cli: values.by });
    let input: DecisionInput;
    if (command === "approve") {
      input = { action: "approve", by, ...(values.arguments === undefined ? {} : { arguments: parseJson(values.arguments) }) };
    } else {
      if (!values.reason?.trim()) throw new ApprovalUsageError("deny needs --reason TEXT: the model receives it as the tool's error result");
      input = { action: "deny", reason: values.reason, by };
    }
    await runs.waitingApprovals(); // waits past their deadline are denied first
    const result = await runs.decide(callId, input);
    if (!result.ok) {
      console.error(result.field ? `${result.field}: ${result.error}` : result.error);
      return 1;
    }
    console.log(values.json ? JSON.stringify({ ok: true, runId: result.runId }) : `${command === "approve" ? "Approved" : "Denied"}; run ${result.runId} is queued to go on.`);
    return 0;
  } finally {
    await closeProcessRuns();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApprovalUsageError(`--arguments is not JSON: ${(error as Error).message}`);
  }
}
