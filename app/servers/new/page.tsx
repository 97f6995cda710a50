import type { Metadata } from "next";
import { saveServerAction } from "@/app/actions/servers";
import { ServerForm } from "@/components/servers/server-form";
import type { ServerFormInitial } from "@/components/servers/server-view";
import { serverEntryDefaults } from "@/lib/mcp";
import { catalogueView } from "../server-views";
import { requirePageRole } from "@/lib/auth";

export const metadata: Metadata = { title: "Register a server" };

const blank: ServerFormInitial = {
  id: "",
  name: "",
  description: "",
  transport: "stdio",
  catalogue: "",
  parameters: {},
  env: {},
  url: "",
  headers: "",
  timeoutMs: String(serverEntryDefaults.timeoutMs),
  toolTimeoutMs: "",
  maxRetries: String(serverEntryDefaults.maxRetries),
  maxConcurrentCalls: "",
  allowedTools: "",
  oauthGrant: "",
  oauthClientId: "",
  oauthClientSecret: "",
  oauthScope: "",
  oauthAllowIssuerMismatch: false,
  enabled: true,
  secretNames: [],
};

export default async function NewServerPage() {
  const actor = await requirePageRole("owner", "/servers/new");
  return (
    <>
      <div className="page-heading">
        <h1>Register a server</h1>
        <p className="lead">A local process started over stdio, or a remote server over Streamable HTTP or SSE.</p>
      </div>
      <ServerForm mode="create" initial={blank} secretStates={{}} catalogue={catalogueView()} save={saveServerAction} />
    </>
  );
}
