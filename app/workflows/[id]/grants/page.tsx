import path from "node:path";
import Link from "next/link";
import { notFound } from "next/navigation";
import { allowEnvironmentCredentialAction, approveLooseningAction, approveOriginAction, grantAction, revokeGrantAction } from "@/app/actions/grants";
import { credentialStore } from "@/app/credentials/credential-store";
import { ErrorNotice } from "@/components/ui/error-notice";
import { requireRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { parseWorkflow, serverUses } from "@/lib/graph";
import { cachedCatalogue, pendingOrigins } from "@/lib/manifest";
import { grantStore } from "./grant-store";
import { credentialUses } from "./workflow-credential-uses";
import { looseningsOf } from "./approval-review";
import { environmentCredentialRequests } from "./environment-credential-requests";
import { originContext } from "./origin-review";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/**
 * A workflow's grants: the registry servers and stored credentials it may
 * use, each revocable; what it uses that is not granted yet; and every
 * origin a credential would be sent to that an owner has not approved.
 */
export default async function WorkflowGrantsPage({ params }: Params) {
  const actor = await requireRole("viewer");
  const { id } = await params;
  let record, grants, stored, context;
  try {
    [record, grants, stored, context] = await Promise.all([getWorkflow(id), grantStore().list(id), credentialStore().status(), originContext(id)]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The grants cannot be read">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  const parsed = parseWorkflow(record.document);
  const workflow = parsed.ok ? parsed.workflow : null;
  const catalogue = await cachedCatalogue(path.join(process.cwd(), "nodes"));
  const mayGrant = actor.role === "owner" || actor.role === "editor";
  const grantedServers = new Set(grants.filter((grant) => grant.kind === "server").map((grant) => grant.resource));
  const ungrantedServers = workflow ? [...new Set(serverUses(workflow).map((use) => use.serverId))].filter((serverId) => !grantedServers.has(serverId)) : [];
  const credentials = workflow ? credentialUses(workflow, catalogue, stored, grants) : [];
  // The same review as the import screen and the canvas: stored credentials and those set in the environment.
  const changes = workflow ? waitingOrigins(pendingOrigins(workflow, context)) : [];
  const loosenings = workflow ? (await looseningsOf(id, workflow)).filter((item) => !item.approved) : [];
  const environmentRequests = workflow ? environmentCredentialRequests(workflow, catalogue, grants) : [];

  return (
    <main className="page">
      <p>
        <Link href={`/workflows/${id}`}>Back to the canvas of “{record.name}”</Link>
      </p>
      <h1>Grants of “{record.name}”</h1>
      <p>Registry servers and stored credentials this workflow may use. Grants are kept outside the document: an imported or copied workflow has none.</p>

      {changes.length ? (
        <section aria-labelledby="origin-changes">
          <h2 id="origin-changes">Origins waiting for an owner</h2>
          <ul>
            {changes.map(({ use, origin }) => (
              <li key={`${use.nodeType}/${use.name}/${origin}`}>
                This workflow sends the credential <strong>{use.name}</strong> ({use.nodeType}, nodes {use.nodeIds.join(", ")}) to <code>{origin}</code>, which it is not bound to. Until an owner approves, runs refuse to send it.
                {actor.role === "owner" ? <ApproveForm label={`Approve sending ${use.name} to ${origin}`} action={async () => { "use server"; await approveOriginAction(id, use.nodeType, use.name, origin); }} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {loosenings.length ? (
        <section aria-labelledby="approval-loosenings">
          <h2 id="approval-loosenings">Approval defaults the document loosens</h2>
          <p>A server&rsquo;s approval default is a floor: until an owner approves here, runs keep it, whatever the document says.</p>
          <ul>
            {loosenings.map((item) => (
              <li key={`${item.nodeId}/${item.server}/${item.tool}`}>
                Node <strong>{item.nodeId}</strong> says <code>{item.document}</code> for <code>{item.server}/{item.tool}</code> ({item.setAt}); the server&rsquo;s default is <code>{item.floor}</code>.
                {actor.role === "owner" ? <ApproveForm label={`Approve loosening ${item.server}/${item.tool} to ${item.document} for this workflow`} action={async () => { "use server"; await approveLooseningAction(id, item.server, item.tool); }} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {environmentRequests.length ? (
        <section aria-labelledby="environment-credentials">
          <h2 id="environment-credentials">Environment credentials asked for by node types that are not first-party</h2>
          <p>A credential set in the server&rsquo;s environment goes only to the first-party node types that declare it, until an owner allows another one here.</p>
          <ul>
            {environmentRequests.map((request) => (
              <li key={`${request.nodeType}/${request.credential}`}>
                Node type <code>{request.nodeType}</code> (nodes {request.nodeIds.join(", ")}) declares <strong>{request.credential}</strong>, set in the environment as <code>{request.variables.join(", ")}</code>; it does not get it.
                {actor.role === "owner" ? <ApproveForm text="Allow" label={`Allow ${request.nodeType} to take ${request.credential} from the environment`} action={async () => { "use server"; await allowEnvironmentCredentialAction(id, request.nodeType, request.credential); }} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="granted">
        <h2 id="granted">Granted</h2>
        {grants.length === 0 ? <p>Nothing is granted to this workflow.</p> : null}
        <ul>
          {grants.map((grant) => (
            <li key={`${grant.kind}/${grant.resource}`}>
              {grantLabels[grant.kind]} <code>{grant.resource}</code>, granted by {grant.grantedBy} on {grant.grantedAt.toISOString().slice(0, 10)}
              {grant.origins.length ? `; also to ${grant.origins.join(", ")}` : ""}
              {mayGrant ? (
                <form action={async () => { "use server"; await revokeGrantAction(id, grant.kind, grant.resource); }}>
                  <button type="submit" className="button-quiet" aria-label={`Revoke ${grant.kind} ${grant.resource}`}>Revoke</button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="needed">
        <h2 id="needed">Used but not granted</h2>
        {ungrantedServers.length === 0 && credentials.every((use) => use.granted) ? <p>Everything this workflow uses is granted.</p> : null}
        <ul>
          {ungrantedServers.map((serverId) => (
            <li key={`server/${serverId}`}>
              MCP server <code>{serverId}</code>
              {mayGrant ? (
                <form action={async () => { "use server"; await grantAction(id, "server", serverId); }}>
                  <button type="submit" className="button" aria-label={`Grant server ${serverId}`}>Grant</button>
                </form>
              ) : null}
            </li>
          ))}
          {credentials.filter((use) => !use.granted).map((use) => (
            <li key={`credential/${use.nodeType}/${use.name}`}>
              Credential <code>{use.nodeType}/{use.name}</code> (nodes {use.nodeIds.join(", ")})
              {mayGrant ? (
                <form action={async () => { "use server"; await grantAction(id, "credential", `${use.nodeType}/${use.name}`); }}>
                  <button type="submit" className="button" aria-label={`Grant credential ${use.nodeType}/${use.name}`}>Grant</button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}

const grantLabels = {
  server: "MCP server",
  credential: "Credential",
  approval: "A looser approval policy than the server's default for",
  environment: "The environment's credential for",
} as const;

/** An owner's Approve button for one waiting item; the action checks the role again. */
function ApproveForm({ label, action, text = "Approve" }: { label: string; action: () => Promise<void>; text?: string }) {
  return (
    <form action={action}>
      <button type="submit" className="button" aria-label={label}>
        {text}
      </button>
    </form>
  );
}

/** Each origin waiting for an owner, once per credential, with the nodes that send it there. */
function waitingOrigins(pending: ReturnType<typeof pendingOrigins>): { use: { nodeType: string; name: string; nodeIds: string[] }; origin: string }[] {
  const waiting = new Map<string, { use: { nodeType: string; name: string; nodeIds: string[] }; origin: string }>();
  for (const change of pending) {
    for (const origin of change.unapproved) {
      const key = `${change.nodeType}/${change.credential}/${origin}`;
      const entry = waiting.get(key) ?? { use: { nodeType: change.nodeType, name: change.credential, nodeIds: [] }, origin };
      entry.use.nodeIds.push(change.nodeId);
      waiting.set(key, entry);
    }
  }
  return [...waiting.values()];
}
