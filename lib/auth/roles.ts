import type { Role } from "../db";

// The role names are the account row's vocabulary (lib/db/roles.ts); what each may do is decided here.
export { parseRole, type Role, roles } from "../db";

/** The person behind a request. */
export interface Actor {
  id: string;
  email: string;
  role: Role;
}

/** What each role adds, in the words the accounts page and the docs use. */
export const roleDescriptions: Record<Role, string> = {
  owner: "everything, plus servers, credentials, people and their tokens",
  editor: "create, edit, import and delete workflows, and run them",
  runner: "start and cancel runs, approve calls and answer a run's questions",
  viewer: "read workflows, runs and traces",
};

const rank: Record<Role, number> = { owner: 3, editor: 2, runner: 1, viewer: 0 };

/** True when `role` may do what needs `minimum`. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return rank[role] >= rank[minimum];
}
