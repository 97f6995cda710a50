import type { Metadata } from "next";
import { PeopleList } from "@/components/accounts/people-list";
import { accounts, requirePageRole, roleDescriptions } from "@/lib/auth";
import { changeRoleAction, createPersonAction, removePersonAction } from "../actions/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "People" };

const actions = { create: createPersonAction, changeRole: changeRoleAction, remove: removePersonAction };

/** The owner's list of people and their roles. */
export default async function AccountsPage() {
  const actor = await requirePageRole("owner", "/accounts");
  const people = (await accounts().listUsers()).map((person) => ({
    id: person.id,
    email: person.email,
    role: person.role,
    createdAt: person.createdAt.toISOString(),
    createdBy: person.createdBy,
    isYou: person.id === actor.id,
  }));
  return (
    <>
      <div className="page-heading">
        <h1>People</h1>
        <p className="lead">Who may sign in, and what each may do. A role change applies at their next request.</p>
      </div>
      <PeopleList people={people} roleDescriptions={roleDescriptions} actions={actions} />
    </>
  );
}
