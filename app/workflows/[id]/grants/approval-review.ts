import "server-only";
import { serverRegistry } from "@/app/servers/server-registry";
import type { Workflow } from "@/lib/graph";
import type { ServerApprovalDefaultsInput } from "@/lib/manifest";
import { approvalGrantKey } from "@/lib/engine";
import { approvalLoosenings } from "@/lib/policy";
import type { ApprovalLooseningItem } from "@/components/workflows/action-types";
import { grantStore } from "./grant-store";

/**
 * Where a workflow's document loosens a registry server's approval default,
 * each with whether an owner approved it for this workflow. `workflowId`
 * null: a document not saved yet, which has no grants.
 */
export async function looseningsOf(workflowId: string | null, document: Pick<Workflow, "nodes" | "edges">): Promise<Array<ApprovalLooseningItem & { approved: boolean }>> {
  const [servers, grants] = await Promise.all([serverRegistry().list(), workflowId ? grantStore().list(workflowId) : Promise.resolve([])]);
  const defaults = new Map<string, ServerApprovalDefaultsInput>(servers.flatMap((listing) => (listing.ok && listing.entry.approval ? [[listing.id, listing.entry.approval] as const] : [])));
  const approved = new Set(grants.filter((grant) => grant.kind === "approval").map((grant) => grant.resource));
  return approvalLoosenings(document, (id) => defaults.get(id)).map((item) => ({
    ...item,
    approved: approved.has(approvalGrantKey(item.server, item.tool)) || approved.has(approvalGrantKey(item.server, "*")),
  }));
}

/** The loosenings an import or a save leaves waiting for an owner. */
export async function pendingLoosenings(workflowId: string | null, document: Pick<Workflow, "nodes" | "edges">): Promise<ApprovalLooseningItem[]> {
  return (await looseningsOf(workflowId, document)).filter((item) => !item.approved).map(({ approved: _approved, ...item }) => item);
}
