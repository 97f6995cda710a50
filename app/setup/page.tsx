import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { OwnerSetupForm } from "@/components/accounts/owner-setup-form";
import { accounts, publicAction, setupOpenWithoutCode } from "@/lib/auth";
import { setupOwnerAction } from "../actions/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

/** First start: one screen that creates the owner. Gone once an owner exists. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ code?: string }> }) {
  publicAction("the first start's set-up screen: it redirects to sign-in once an owner exists");
  if ((await accounts().countOwners()) > 0) redirect("/sign-in");
  const { code } = await searchParams;
  const needsCode = !setupOpenWithoutCode();
  return (
    <>
      <div className="page-heading">
        <h1>Set up Switchboard</h1>
        <p className="lead">Create the owner account. The owner adds the other people and chooses their roles.</p>
      </div>
      {needsCode && !code ? (
        <p className="notice notice-error" role="alert">
          This Switchboard answers under other names than this machine&apos;s (SWITCHBOARD_ALLOWED_HOSTS), so the set-up needs the one-time link printed in the server&apos;s log. Open that link, or set
          SWITCHBOARD_OWNER_EMAIL and SWITCHBOARD_OWNER_PASSWORD and restart.
        </p>
      ) : (
        <OwnerSetupForm action={setupOwnerAction} code={code} />
      )}
    </>
  );
}
