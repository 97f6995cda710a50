import type { Metadata } from "next";
import Link from "next/link";
import { deleteServerAction, testServerAction } from "@/app/actions/servers";
import { ServerList } from "@/components/servers/server-list";
import styles from "@/components/servers/servers.module.css";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError } from "@/lib/db";
import { serverRegistry } from "./server-registry";
import { serverView } from "./server-views";
import { may, requirePageRole } from "@/lib/auth/require-role";

// Reads the registry on every request: a row changed outside the app shows as refused on reload.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "MCP servers" };

export default async function ServersPage({ searchParams }: { searchParams: Promise<{ saved?: string }> }) {
  const actor = await requirePageRole("viewer", "/servers");
  const { saved } = await searchParams;
  let listings;
  try {
    listings = await serverRegistry().list();
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <PageHeading owner={may(actor, "owner")} />
        <ErrorNotice title="The servers cannot be listed">{error.message}</ErrorNotice>
      </>
    );
  }
  const servers = listings.map(serverView);
  const savedServer = saved ? servers.find((server) => server.id === saved) : undefined;
  return (
    <>
      <PageHeading owner={may(actor, "owner")} />
      {savedServer ? (
        <p role="status" className="notice">
          Saved {savedServer.name ?? savedServer.id}.
        </p>
      ) : null}
      <ServerList servers={servers} actions={may(actor, "owner") ? { remove: deleteServerAction, test: testServerAction } : null} />
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
