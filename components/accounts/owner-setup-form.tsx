"use client";

import { useActionState } from "react";
import type { FormState } from "@/components/servers/action-types";
import { AccountField, FormAnswer } from "./account-field";

/** The one-screen first start: the owner's email and password. */
export function OwnerSetupForm({ action, code }: { action: (previous: FormState, form: FormData) => Promise<FormState>; code?: string }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, null);
  return (
    <form action={formAction} className="card" aria-label="Create the owner account">
      {code ? <input type="hidden" name="code" value={code} /> : null}
      <AccountField name="email" label="Email" type="email" autoComplete="username" state={state} />
      <AccountField name="password" label="Password" type="password" autoComplete="new-password" state={state} hint="At least 10 characters." />
      <FormAnswer state={state} />
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Creating…" : "Create the owner account"}
      </button>
    </form>
  );
}
