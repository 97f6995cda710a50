import type { Metadata } from "next";
import { TokenList } from "@/components/accounts/token-list";
import { accounts, may, requirePageRole } from "@/lib/auth";
import { createTokenAction, revokeTokenAction } from "../actions/tokens";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "MCP tokens" };

const actions = { create: createTokenAction, revoke: revokeTokenAction };

/** Bearer tokens for the workflows' MCP endpoint (/api/mcp/<workflow id>): yours, or everyone's for an owner. */
export default async function TokensPage() {
  const actor = await requirePageRole("viewer", "/tokens");
  const owner = may(actor, "owner");
  const tokens = (await accounts().listApiTokens(owner ? undefined : actor.id)).map((token) => ({
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    ownerEmail: token.userEmail,
    ownerRole: token.userRole,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  }));
  return (
    <>
      <div className="page-heading">
        <h1>MCP tokens</h1>
        <p className="lead">
          An MCP host (Claude Desktop, an agent elsewhere) calls a workflow at <code>/api/mcp/&lt;workflow id&gt;</code> with one of these. A token acts with its person&apos;s role: calling a workflow&apos;s tools
          starts runs, so a viewer&apos;s token is refused there.{owner ? " As an owner you see and can revoke everyone's tokens." : ""}
        </p>
      </div>
      <TokenList tokens={tokens} actions={actions} showOwner={owner} />
    </>
  );
}
