"use client";

import { useActionState } from "react";
import type { FormState } from "@/components/servers/action-types";
import { AccountField, FormAnswer } from "./account-field";

/** Change your own password; your other sessions end. */
export function PasswordForm({ action }: { action: (previous: FormState, form: FormData) => Promise<FormState> }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, null);
  return (
    <form action={formAction} className="card" aria-label="Change your password">
      <h2>Password</h2>
      <AccountField name="currentPassword" label="Current password" type="password" autoComplete="current-password" state={state} />
      <AccountField name="newPassword" label="New password" type="password" autoComplete="new-password" state={state} hint="At least 10 characters. Every other session of yours is signed out." />
      <FormAnswer state={state} />
      <button type="submit" className="button" disabled={pending}>
        Change password
      </button>
    </form>
  );
}
