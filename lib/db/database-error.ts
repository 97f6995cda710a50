import { databaseUrl } from "./database-url";

export type DatabaseErrorCode = "database-not-prepared" | "database-unavailable" | "database-corrupt-row";

/**
 * A failure of the storage layer, worded for the person running the app
 * (never a Prisma code frame or a stack trace). `cause` keeps the original
 * for logs.
 */
export class DatabaseError extends Error {
  override name = "DatabaseError";
  constructor(
    readonly code: DatabaseErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const prepareHint = "run `npm start` (or `npx tsx scripts/prepare-app.ts`) to create it and apply the migrations";

/** Missing tables or columns: the migrations have not been applied. */
const notPreparedCodes = new Set(["P2021", "P2022", "P1003"]);

/**
 * Turns whatever the Prisma client threw into a DatabaseError saying what to
 * do, e.g. `toDatabaseError(error, "list the workflows")`.
 */
export function toDatabaseError(error: unknown, action: string): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const where = describeDatabase();
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  if (notPreparedCodes.has(code)) {
    return new DatabaseError("database-not-prepared", `Could not ${action}: the database ${where} is not set up; ${prepareHint}.`, { cause: error });
  }
  return new DatabaseError("database-unavailable", `Could not ${action}: the database ${where} cannot be used (${firstLine(error)}).`, { cause: error });
}

function describeDatabase(): string {
  const url = databaseUrl();
  return url.startsWith("file:") ? `file ${url.slice("file:".length)}` : "named by DATABASE_URL";
}

/** The last non-empty line of a Prisma message is the reason; the rest is a code frame. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split("\n").map((line) => line.trim()).filter(Boolean);
  return lines.at(-1) ?? "unknown error";
}
