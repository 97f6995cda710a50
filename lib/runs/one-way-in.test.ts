import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Source files of the product and its test support (tests themselves may write rows to set a scene). */
function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") found.push(...sourceFiles(relative));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(relative);
  }
  return found;
}

/** What writes a queued run, or creates a Run row: SQL that sets or inserts `queued`, an INSERT into "Run", a Prisma create of a run. */
const queueWrites: Array<[RegExp, string]> = [
  [/SET\s+"status"\s*=\s*'queued'/, "sets a run's status to queued"],
  [/INSERT\s+INTO\s+"Run"\s/, 'inserts a "Run" row'],
  [/\.run\.(create|createMany|upsert)\(/, "creates a Run row with Prisma"],
  [/\.run\.updateMany?\([^)]*status:\s*["']queued["']/s, "queues a run with Prisma"],
];

/** The places allowed to, and why. */
const allowed: Record<string, string> = {
  "lib/db/queued-runs.ts": "the statements themselves, called only through the run service",
  "lib/db/run-sink.ts": "an outside host's service call opens its (running, never queued) Run through the sink, from lib/runs/outside-runs.ts",
};

describe("one way in for runs", () => {
  it("leaves writing a queued run to the run service (lib/runs) and the statements it uses", () => {
    const offenders: string[] = [];
    // bench/ seeds finished runs straight into the tables to measure reads; it starts nothing.
    for (const file of ["lib", "app", "scripts", "components"].flatMap(sourceFiles)) {
      if (file.startsWith(`lib${path.sep}runs${path.sep}`) || allowed[file.split(path.sep).join("/")]) continue;
      const text = readFileSync(path.join(root, file), "utf8");
      for (const [pattern, what] of queueWrites) if (pattern.test(text)) offenders.push(`${file} ${what}`);
    }
    expect(offenders).toEqual([]);
  });

  it("keeps the statements that queue runs out of reach of every room but lib/db and lib/runs", () => {
    const importers = ["lib", "app", "scripts", "components", "bench"]
      .flatMap(sourceFiles)
      .filter((file) => !file.startsWith(`lib${path.sep}db${path.sep}`) && !file.startsWith(`lib${path.sep}runs${path.sep}`))
      .filter((file) => /from "[^"]*\/db\/(queued-runs|approvals|questions|attention-choice|run-fork|interrupted-runs)"/.test(readFileSync(path.join(root, file), "utf8")));
    // Reads (waiting approvals and questions listed for a page) may import their types; what writes goes through the run service.
    const writers = importers.filter((file) => /\b(recordApprovalDecision|recordQuestionAnswer|recordAttentionChoice|forkRun|resumeInterruptedRuns|queuedRunInsert|requeueWaitingRun|denyExpiredApprovals)\b/.test(readFileSync(path.join(root, file), "utf8")));
    expect(writers).toEqual([]);
  });

  it("finds a second way in when one is added (the check itself)", () => {
    const written = 'await db.execute(`INSERT INTO "Run" ("id", "status") VALUES (?, \'queued\')`, [id]);';
    expect(queueWrites.some(([pattern]) => pattern.test(written))).toBe(true);
    expect(queueWrites.some(([pattern]) => pattern.test('prisma.run.create({ data: { id, status: "queued" } })'))).toBe(true);
    expect(queueWrites.some(([pattern]) => pattern.test(`UPDATE "Run" SET "status" = 'queued' WHERE "id" = ?`))).toBe(true);
  });
});
