import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { connectServerAction, deleteServerAction, disconnectServerAction, testServerAction } from "@/app/actions/servers";
import { ServerList } from "@/components/servers/server-list";
import styles from "@/components/servers/servers.module.css";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError } from "@/lib/db";
import { oauthResultCookie, oauthStore } from "./oauth/oauth-connection";
import { serverRegistry } from "./server-registry";
import { serverView } from "./server-views";
import { may, requirePageRole } from "@/lib/auth";

// Reads the registry on every request: a row changed outside the app shows as refused on reload.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "MCP servers" };

export default async function ServersPage({ searchParams }: { searchParams: Promise<{ saved?: string; oauth?: string }> }) {
  const actor = await requirePageRole("viewer", "/servers");
  const { saved, oauth } = await searchParams;
  let listings;
  let connections;
  try {
    [listings, connections] = await Promise.all([serverRegistry().list(), oauthStore().statuses()]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <PageHeading owner={may(actor, "owner")} />
        <ErrorNotice title="The servers cannot be listed">{error.message}</ErrorNotice>
      </>
    );
  }
  const servers = listings.map((listing) => serverView(listing, connections));
  // What the OAuth callback did, in its own words (set by app/servers/oauth/callback, gone after a minute).
  const oauthNote = oauth ? (await cookies()).get(oauthResultCookie)?.value : undefined;
  const savedServer = saved ? servers.find((server) => server.id === saved) : undefined;
  return (
    <>
      <PageHeading owner={may(actor, "owner")} />
      {savedServer ? (
        <p role="status" className="notice">
          Saved {savedServer.name ?? savedServer.id}.
        </p>
      ) : null}
      {oauthNote ? (
        <p role={oauthNote.startsWith("Connected") ? "status" : "alert"} className={oauthNote.startsWith("Connected") ? "notice" : "notice notice-error"}>
          {oauthNote}
        </p>
      ) : null}
      <ServerList servers={servers} actions={may(actor, "owner") ? { remove: deleteServerAction, test: testServerAction, connect: connectServerAction, disconnect: disconnectServerAction } : null} />
    </>
  );
}

function PageHeading({ owner }: { owner: boolean }) {
  return (
    <div className="page-heading">
      <h1>MCP servers</h1>
      <p className="lead">
        The servers agents may take tools from. Workflows refer to a server by its id; the command, URL and secrets stay here,
        checked again every time they are read.
      </p>
      {owner ? (
        <div className={styles.headerActions}>
          <Link href="/servers/new" className="button">
            Register a server
          </Link>
          <Link href="/credentials">Node credentials</Link>
        </div>
      ) : null}
    </div>
  );
}
