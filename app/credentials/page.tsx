import type { Metadata } from "next";
import { clearCredentialAction, saveCredentialAction } from "@/app/actions/credentials";
import { CredentialForm, type CredentialView } from "@/components/servers/credential-form";
import styles from "@/components/servers/servers.module.css";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError } from "@/lib/db";
import { credentialStore } from "./credential-store";
import { credentialRequirements, setInEnvironment } from "./credential-requirements";
import { requirePageRole } from "@/lib/auth";

// Reads nodes/ and the stored credentials on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Credentials" };

export default async function CredentialsPage() {
  const actor = await requirePageRole("owner", "/credentials");
  const requirements = await credentialRequirements();
  let stored;
  try {
    stored = await credentialStore().status();
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <PageHeading />
        <ErrorNotice title="The credentials cannot be read">{error.message}</ErrorNotice>
      </>
    );
  }
  const views: CredentialView[] = requirements.map(({ nodeType, nodeTitle, requirement, defaultOrigins }) => {
    const saved = stored.find((item) => item.nodeType === nodeType && item.name === requirement.name);
    const fields = saved?.fields ?? [];
    return {
      nodeType,
      nodeTitle,
      name: requirement.name,
      displayName: requirement.displayName,
      description: requirement.description,
      required: requirement.required,
      defaultOrigins,
      origins: saved?.origins ?? [],
      fields: requirement.fields.map((field) => ({
        name: field,
        state: fields.includes(field) ? "stored" : setInEnvironment(requirement.name, field) ? "environment" : "missing",
      })),
    };
  });
  return (
    <>
      <PageHeading />
      {views.length === 0 ? (
        <EmptyState title="No node type needs a credential">
          <p>Node types declare credentials in their interface.yaml.</p>
        </EmptyState>
      ) : (
        <ul className={styles.credentialList} aria-label="Node credentials">
          {views.map((view) => (
            <li key={`${view.nodeType}/${view.name}`}>
              <CredentialForm credential={view} actions={{ save: saveCredentialAction, clear: clearCredentialAction }} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function PageHeading() {
  return (
    <div className="page-heading">
      <h1>Credentials</h1>
      <p className="lead">
        API keys and tokens node types declare. Values are stored encrypted, used only on the server while a node runs, redacted from
        traces, and never shown again. A stored value wins over <code>SWITCHBOARD_CREDENTIAL_&lt;NAME&gt;_&lt;FIELD&gt;</code>.
      </p>
    </div>
  );
}
