import type { Metadata } from "next";
import { PasswordForm } from "@/components/accounts/password-form";
import { requirePageRole, roleDescriptions } from "@/lib/auth";
import { changePasswordAction, signOutAction } from "../actions/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const actor = await requirePageRole("viewer", "/account");
  return (
    <>
      <div className="page-heading">
        <h1>Your account</h1>
        <p className="lead">
          {actor.email} · {actor.role}: {roleDescriptions[actor.role]}.
        </p>
      </div>
      <PasswordForm action={changePasswordAction} />
      <form action={signOutAction}>
        <button type="submit" className="button-quiet">
          Sign out
        </button>
      </form>
    </>
  );
}
