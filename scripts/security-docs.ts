/**
 * npm run docs:security
 *   Regenerates the table of every server action, route and page with the
 *   role it needs in docs/security.md, from the code (lib/auth/role-table.ts).
 *   A test fails while the table is stale or an entry point has no check.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { collectRoleChecks, renderRoleTable, withRoleTable } from "../lib/auth/role-table";

const root = path.resolve(import.meta.dirname, "..");
const file = path.join(root, "docs", "security.md");
const entries = collectRoleChecks(root);
writeFileSync(file, withRoleTable(readFileSync(file, "utf8"), renderRoleTable(entries)));
const unchecked = entries.filter((entry) => entry.needs === null);
console.log(`docs:security: ${entries.length} entry points in docs/security.md${unchecked.length ? `; WITHOUT a check: ${unchecked.map((entry) => `${entry.file} ${entry.name}`).join(", ")}` : ""}`);
if (unchecked.length) process.exitCode = 1;
