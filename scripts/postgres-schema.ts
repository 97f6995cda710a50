/**
 * npm run db:postgres-schema
 *   After a change to prisma/schema.prisma (and its SQLite migration):
 *   regenerates prisma/postgres/schema.prisma from it and writes the Postgres
 *   migration that takes the previous Postgres schema to the new one
 *   (prisma/postgres/migrations/<timestamp>_<name>/migration.sql, made by
 *   `prisma migrate diff`), then regenerates the Postgres client.
 *   `--name NAME` names the migration (default: schema_change).
 *   Needs a Postgres server to diff through (DATABASE_URL or
 *   SWITCHBOARD_TEST_POSTGRES_URL; nothing is changed there).
 *   A test fails while the two schemas disagree.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { postgresSchemaFrom } from "../lib/db";

const root = path.resolve(import.meta.dirname, "..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");
const target = path.join(root, "prisma", "postgres", "schema.prisma");
const config = path.join(root, "prisma", "postgres", "prisma.config.ts");

const { values } = parseArgs({ options: { name: { type: "string", default: "schema_change" } } });
const next = postgresSchemaFrom(readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8"));
const previous = existsSync(target) ? readFileSync(target, "utf8") : null;
if (previous === next) {
  console.log("db:postgres-schema: prisma/postgres/schema.prisma is up to date; no migration needed");
  process.exit(0);
}
// Prisma reads the config's schema file (the new one) to pick its JavaScript engine; the previous
// schema sits beside it for the diff, since the generator output resolves relative to the file.
const scratch = path.join(root, "prisma", "postgres", `.previous-${process.pid}.prisma`);
if (previous !== null) writeFileSync(scratch, previous);
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, next);
// Prisma's JavaScript engine diffs through a connection (it changes nothing there): any Postgres server does.
const server = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : (process.env.SWITCHBOARD_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test");
const env = { ...process.env, DATABASE_URL: server, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const from = previous === null ? ["--from-empty"] : ["--from-schema-datamodel", scratch];
let sql: string;
try {
  sql = execFileSync(prismaBin, ["migrate", "diff", "--config", config, ...from, "--to-schema-datamodel", target, "--script"], { cwd: root, env, encoding: "utf8" })
    .split("\n")
    .filter((line) => !line.startsWith("Loaded Prisma config"))
    .join("\n");
} catch (error) {
  if (previous !== null) writeFileSync(target, previous);
  throw error;
} finally {
  rmSync(scratch, { force: true });
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const folder = path.join(root, "prisma", "postgres", "migrations", `${stamp}_${values.name}`);
mkdirSync(folder, { recursive: true });
writeFileSync(path.join(folder, "migration.sql"), sql);
execFileSync(prismaBin, ["generate", "--config", config], { cwd: root, env, stdio: "ignore" });
console.log(`db:postgres-schema: wrote ${path.relative(root, target)} and ${path.relative(root, folder)}/migration.sql`);
