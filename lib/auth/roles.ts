/** Who may do what: owner > editor (build and run) > runner (run and approve) > viewer (read traces). */
export type Role = "owner" | "editor" | "runner" | "viewer";

/** The person behind a request. */
export interface Actor {
  id: string;
  email: string;
  role: Role;
}

/** Every role, highest first. */
export const roles: readonly Role[] = ["owner", "editor", "runner", "viewer"];

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

/** A stored or submitted role, checked; null when it is none of the four. */
export function parseRole(value: unknown): Role | null {
  return typeof value === "string" && (roles as readonly string[]).includes(value) ? (value as Role) : null;
}
