import type { z } from "zod";

/** Why an entry is refused, and the field at fault (`url`, `command`, `env.PATH`, `secrets.TOKEN`…). */
export interface EntryProblem {
  field: string;
  message: string;
  /** For a stdio command line no catalogue entry allows: the catalogue entry (JSON) that would allow it. */
  catalogueLine?: string;
}

/** The top-level field a problem belongs to (`env.PATH` → `env`), for placing it next to a form field. */
export function problemField(problem: EntryProblem): string {
  return problem.field.split(".")[0];
}

/**
 * An entry the registry refused: the caller's input (on save), or a stored
 * entry that no longer passes (on load: it was changed outside the app, or
 * the machine's policy changed). The person is at fault and the message says
 * what to change.
 */
export class ServerEntryError extends Error {
  override name = "ServerEntryError";
  readonly code: "server-entry-invalid" | "server-entry-stored-invalid";
  readonly field: string;

  constructor(
    readonly problem: EntryProblem,
    readonly context: { serverId?: string; stored: boolean },
  ) {
    super(context.stored ? storedMessage(problem, context.serverId) : `${problem.field || "entry"}: ${problem.message}`);
    this.code = context.stored ? "server-entry-stored-invalid" : "server-entry-invalid";
    this.field = problem.field;
  }
}

function storedMessage(problem: EntryProblem, serverId: string | undefined): string {
  return (
    `the stored server ${serverId ? `'${serverId}' ` : ""}is refused (${problem.field || "entry"}: ${problem.message}); ` +
    "it was changed outside Switchboard or no longer passes this machine's rules — register it again or delete it"
  );
}

/** The first issue of a failed parse, worded for a person and pointing at its field. */
export function problemFromZod(error: z.ZodError): EntryProblem {
  const issue = error.issues[0];
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const field = [...path, issue.keys[0]].join(".");
    return { field, message: `${issue.keys.map((key) => `'${key}'`).join(", ")} ${issue.keys.length === 1 ? "is not a field" : "are not fields"} of this kind of server` };
  }
  if (issue.code === "invalid_key") {
    const inner = issue.issues[0];
    return { field: path.join("."), message: inner?.message ?? issue.message };
  }
  // zod's own wording ("Invalid input: expected string, received undefined") reads as a bug report.
  const zodWording = issue.message.startsWith("Invalid input");
  if (issue.code === "invalid_type" && zodWording && /received undefined/.test(issue.message)) {
    return { field: path.join("."), message: `${path.at(-1) ?? "the entry"} is required` };
  }
  if (issue.code === "invalid_type" && zodWording) {
    return { field: path.join("."), message: `${path.at(-1) ?? "the entry"} must be ${article(issue.expected)}` };
  }
  return { field: path.join("."), message: issue.message };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
