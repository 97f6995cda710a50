/**
 * npm run test:cases — the repository's own example cases (tests/cases/)
 * run with `workflow test` against a fresh database: a temporary SQLite
 * file, migrated and seeded with the demo workflow as a fresh install is.
 * Exits as `workflow test` does (0 all pass, 1 a case failed, 2 bad input).
 * The JUnit report goes to SWITCHBOARD_CASES_JUNIT when set.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient, demoWorkflow } from "../lib/db";
import { migrateDatabase } from "./prepare-app";

const root = path.resolve(import.meta.dirname, "..");
const folder = mkdtempSync(path.join(os.tmpdir(), "switchboard-cases-"));
const url = `file:${path.join(folder, "cases.db")}`;
let code = 2;
try {
  await migrateDatabase(url, () => undefined);
  const prisma = createPrismaClient(url);
  try {
    await prisma.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  } finally {
    await prisma.$disconnect();
  }
  const junit = process.env.SWITCHBOARD_CASES_JUNIT ? ["--junit", path.resolve(process.env.SWITCHBOARD_CASES_JUNIT)] : [];
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "cli.mjs"), "workflow", "test", path.join(root, "tests", "cases"), ...junit], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, INIT_CWD: root },
    stdio: "inherit",
  });
  code = result.status ?? 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.exit(code);
