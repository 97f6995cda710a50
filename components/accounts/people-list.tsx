"use client";

import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import type { ActionResult, FormState } from "@/components/servers/action-types";
import { AccountField, FormAnswer } from "./account-field";

type Role = "owner" | "editor" | "runner" | "viewer";
const roleNames: Role[] = ["owner", "editor", "runner", "viewer"];

/** A person as the accounts page lists them (dates as text: they cross to the browser). */
export interface PersonView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  createdBy: string | null;
  isYou: boolean;
}

export interface PeopleActions {
  create(previous: FormState, form: FormData): Promise<FormState>;
  changeRole(userId: string, role: string): Promise<ActionResult>;
  remove(userId: string): Promise<ActionResult>;
}

/** The owner's view: everyone with their role (changeable), and a form to add a person. */
export function PeopleList({ people, roleDescriptions, actions }: { people: PersonView[]; roleDescriptions: Record<Role, string>; actions: PeopleActions }) {
  const router = useRouter();
  const [state, formAction, pending] = useActionState<FormState, FormData>(actions.create, null);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const act = (work: () => Promise<ActionResult>) =>
    startTransition(async () => {
      const result = await work();
      setError(result.ok ? null : result.error);
      router.refresh();
    });
  return (
    <>
      <div className="table-scroll">
        <table className="parameter-table" aria-label="People">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {people.map((person) => (
              <tr key={person.id}>
                <td>
                  {person.email}
                  {person.isYou ? <span className="muted small"> (you)</span> : null}
                </td>
                <td>
                  <select aria-label={`Role of ${person.email}`} value={person.role} disabled={busy} onChange={(event) => act(() => actions.changeRole(person.id, event.target.value))}>
                    {roleNames.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="small muted">
                  {person.createdAt.slice(0, 10)}
                  {person.createdBy ? ` by ${person.createdBy}` : ""}
                </td>
                <td>
                  {person.isYou ? null : (
                    <button type="button" className="button-quiet button-danger" disabled={busy} onClick={() => act(() => actions.remove(person.id))} aria-label={`Remove ${person.email}`}>
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
      <form action={formAction} className="card" aria-label="Add a person">
        <h2>Add a person</h2>
        <AccountField name="email" label="Email" type="email" autoComplete="off" state={state} />
        <div className="form-field">
          <label htmlFor="account-role">Role</label>
          <select id="account-role" name="role" defaultValue="viewer">
            {roleNames.map((role) => (
              <option key={role} value={role}>
                {role}: {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </div>
        <AccountField name="password" label="First password" type="password" autoComplete="new-password" state={state} hint="Tell it to them yourself; they can change it on their account page." />
        <FormAnswer state={state} />
        <button type="submit" className="button" disabled={pending}>
          Add the person
        </button>
      </form>
    </>
  );
}
