import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { saveServerAction } from "@/app/actions/servers";
import { ServerForm } from "@/components/servers/server-form";
import { ErrorNotice } from "@/components/ui/error-notice";
import { formFromEntry } from "@/lib/mcp";
import { catalogueChoiceOf, catalogueView } from "../../server-views";
import { serverRegistry } from "../../server-registry";
import { requirePageRole } from "@/lib/auth";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Edit a server" };

export default async function EditServerPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requirePageRole("owner");
  const { id } = await params;
  const listing = await serverRegistry().describe(decodeURIComponent(id));
  if (!listing) notFound();
  if (!listing.ok) {
    return (
      <>
        <div className="page-heading">
          <h1>Edit {listing.name ?? listing.id}</h1>
        </div>
        <ErrorNotice title="This stored server is refused">
          {listing.error} <Link href="/servers/new">Register it again</Link> with the id <code>{listing.id}</code> to replace it.
        </ErrorNotice>
        {listing.problem.catalogueLine ? (
          <>
            <p>The administrator can allow exactly this command line with this entry in the stdio catalogue&apos;s <code>servers</code>:</p>
            <pre aria-label={`Catalogue entry that would allow ${listing.name ?? listing.id}`}>
              <code>{listing.problem.catalogueLine}</code>
            </pre>
          </>
        ) : null}
      </>
    );
  }
  return (
    <>
      <div className="page-heading">
        <h1>Edit {listing.entry.name}</h1>
        <p className="lead">Stored secrets show only whether they are set; replace one to change it.</p>
      </div>
      <ServerForm mode="edit" initial={formFromEntry(listing.entry, catalogueChoiceOf(listing.entry))} secretStates={listing.secrets} catalogue={catalogueView()} save={saveServerAction} />
    </>
  );
}
