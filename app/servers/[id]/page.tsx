import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listServerToolsAction, saveServerApprovalAction } from "@/app/actions/servers";
import { ServerApprovalForm, ServerApprovalSummary } from "@/components/servers/server-approval-form";
import styles from "@/components/servers/servers.module.css";
import { ToolList } from "@/components/servers/tool-list";
import { ErrorNotice } from "@/components/ui/error-notice";
import { serverRegistry } from "../server-registry";
import { may, requirePageRole } from "@/lib/auth";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Server ${decodeURIComponent((await params).id)}` };
}

export default async function ServerPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requirePageRole("viewer");
  const id = decodeURIComponent((await params).id);
  const listing = await serverRegistry().describe(id);
  if (!listing) notFound();
  if (!listing.ok) {
    return (
      <>
        <div className="page-heading">
          <h1>{listing.name ?? listing.id}</h1>
        </div>
        <ErrorNotice title="This stored server is refused">{listing.error}</ErrorNotice>
      </>
    );
  }
  const { entry } = listing;
  return (
    <>
      <div className="page-heading">
        <h1>{entry.name}</h1>
        <p className="lead">
          {entry.description ? `${entry.description} · ` : ""}
          <code>{entry.id}</code> · {entry.transport === "stdio" ? [entry.command, ...entry.args].join(" ") : entry.url}
        </p>
        <div className={styles.headerActions}>
          {may(actor, "owner") ? (
            <Link href={`/servers/${encodeURIComponent(entry.id)}/edit`} className={styles.secondaryButton}>
              Edit
            </Link>
          ) : null}
          <Link href="/servers">All servers</Link>
        </div>
      </div>
      {/* Approval defaults decide what agents may do with the server's tools: an editor's or owner's setting (docs/approvals.md). */}
      {may(actor, "editor") ? <ServerApprovalForm serverId={entry.id} serverName={entry.name} value={entry.approval} save={saveServerApprovalAction} /> : <ServerApprovalSummary value={entry.approval} />}
      {/* Listing the tools connects to the server: an editor's action (docs/security.md). */}
      {may(actor, "editor") ? <ToolList serverId={entry.id} serverName={entry.name} listTools={listServerToolsAction} /> : null}
    </>
  );
}
