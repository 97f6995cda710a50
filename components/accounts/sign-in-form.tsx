"use client";

import { useActionState } from "react";
import type { FormState } from "@/components/servers/action-types";
import { AccountField, FormAnswer } from "./account-field";

/** Email and password; `next` is the page to return to. */
export function SignInForm({ action, next }: { action: (previous: FormState, form: FormData) => Promise<FormState>; next?: string }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, null);
  return (
    <form action={formAction} className="card" aria-label="Sign in">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <AccountField name="email" label="Email" type="email" autoComplete="username" state={state} />
      <AccountField name="password" label="Password" type="password" autoComplete="current-password" state={state} />
      <FormAnswer state={state} />
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
