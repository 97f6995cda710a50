import type { ClientBase } from "pg";
import type { SqlStatement } from "./sql-database";

/** The error a refused guard raises: a text that is no integer, cast to one (plain SQL has no RAISE). */
export const guardRefusal = "switchboard: guard found no row";

/** Distinct statements prepared per connection; past this, statements are sent whole (parsed each time). */
const maxPrepared = 500;

/**
 * The statements of a transaction as the text of one simple query, so the
 * whole transaction is one round trip: each statement becomes `EXECUTE
 * <name>(<values>)` of a statement prepared on that connection the first
 * time it meets it, so the server parses and plans it once per connection
 * instead of once per step. A statement Postgres cannot prepare (it cannot
 * tell a parameter's type) is sent whole, its values inlined. Values are
 * quoted literals, which Postgres reads as the parameter's own type.
 *
 * @example
 * const statements = new PostgresStatements();
 * await client.query(["BEGIN", ...(await statements.texts(client, list)), "COMMIT"].join(";\n"));
 * // e.g. BEGIN; EXECUTE switchboard_1('run-1', 'agent#1/t1', …); COMMIT
 */
export class PostgresStatements {
  /** The name each SQL text is prepared under, or null when it cannot be prepared. */
  private readonly names = new Map<string, string | null>();
  /** Which names each connection has prepared (a new connection starts with none). */
  private readonly preparedOn = new WeakMap<ClientBase, Set<string>>();

  async texts(client: ClientBase, statements: ReadonlyArray<SqlStatement>): Promise<string[]> {
    const texts: string[] = [];
    for (const [sql, params, guard] of statements) {
      const text = guard ? guarded(sql) : sql;
      const name = await this.prepare(client, text);
      if (!name) texts.push(inline(text, params));
      else texts.push(params.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${params.map(literal).join(", ")})`);
    }
    return texts;
  }

  private async prepare(client: ClientBase, text: string): Promise<string | null> {
    let name = this.names.get(text);
    if (name === undefined) {
      if (this.names.size >= maxPrepared) return null;
      name = `switchboard_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    if (name === null) return null;
    const prepared = this.preparedOn.get(client) ?? new Set<string>();
    this.preparedOn.set(client, prepared);
    if (prepared.has(name)) return name;
    try {
      await client.query(`PREPARE ${name} AS ${numbered(text)}`);
    } catch (error) {
      if ((error as { code?: string }).code !== "42P18") throw error; // 42P18: a parameter's type cannot be told
      this.names.set(text, null);
      return null;
    }
    prepared.add(name);
    return name;
  }
}

/**
 * A guard's query as one that fails when it finds no row: it counts what the
 * query returns (keeping its locks, e.g. FOR SHARE) and casts the refusal
 * text to an integer when that is none.
 */
function guarded(sql: string): string {
  return `SELECT (CASE WHEN COUNT(*) = 0 THEN '${guardRefusal}' ELSE '1' END)::int AS "held" FROM (${sql}) AS "guarded"`;
}

/** The error of a guard that found no row. */
export function isGuardRefusal(error: unknown): boolean {
  return (error as { code?: string }).code === "22P02" && String((error as Error).message).includes(guardRefusal);
}

/** A statement with its values inlined. */
function inline(sql: string, params: readonly unknown[]): string {
  let index = 0;
  return sql.replace(/\?/g, () => literal(params[index++]));
}

/** A value as a quoted literal (untyped: Postgres reads it as the column's or parameter's type), or NULL. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "'true'" : "'false'";
  if (typeof value === "number" && Number.isFinite(value)) return `'${value}'`;
  if (typeof value === "bigint") return `'${value}'`;
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (typeof value === "string") return quoted(value);
  throw new TypeError(`a ${typeof value} cannot be a SQL value`);
}

/**
 * A text as a string literal, as pg's escapeLiteral writes it (quotes
 * doubled; with a backslash, an E'' literal with backslashes doubled), with
 * the engine's own search and replace instead of a loop over characters: a
 * step's JSON is kilobytes long.
 */
export function quoted(text: string): string {
  const doubled = text.includes("'") ? text.replaceAll("'", "''") : text;
  return text.includes("\\") ? ` E'${doubled.replaceAll("\\", "\\\\")}'` : `'${doubled}'`;
}

/** `?` placeholders as `$1, $2, …` (the SQL here never has a `?` inside a literal). */
export function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
