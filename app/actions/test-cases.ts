"use server";

import path from "node:path";
import { requireRole } from "@/lib/auth/require-role";
import { prisma } from "@/lib/db/client";
import { PinError } from "@/lib/evals/pin-run";
import { casesDir, keepRunAsTest } from "@/lib/runs";

/** What keepRunAsTestCase answers: where the case was written and its text (for the download), or why not. */
export type KeepAsTestResult = { ok: true; file: string; fileName: string; text: string } | { ok: false; error: string; field?: "runId" | "name" };

/**
 * Keeps a completed run as a test case file in the cases folder
 * (SWITCHBOARD_CASES_DIR, default tests/cases; see docs/tests.md) and
 * answers its text, which the run page offers as a download. Refused with a
 * message for a run that is not completed or does not exist. Writing into
 * the repository is an editor's step.
 */
export async function keepRunAsTestCase(runId: string, name?: string): Promise<KeepAsTestResult> {
  await requireRole("editor");
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given.", field: "runId" };
  if (name !== undefined && (typeof name !== "string" || name.length > 200)) return { ok: false, error: "The case's name must be text of at most 200 characters.", field: "name" };
  try {
    const kept = await keepRunAsTest(prisma(), runId, { name: name?.trim() || undefined });
    const relative = path.relative(process.cwd(), kept.file);
    return { ok: true, file: relative.startsWith("..") ? kept.file : relative, fileName: path.basename(kept.file), text: kept.text };
  } catch (error) {
    if (error instanceof PinError) return { ok: false, error: error.message, field: "runId" };
    console.error("The run could not be kept as a test case:", error);
    const reason = error instanceof Error ? error.message.split("\n")[0] : "";
    return { ok: false, error: `The run could not be kept as a test case in ${casesDir()} because of an error on our side${reason ? ` (${reason})` : ""}. The server log has the details.` };
  }
}
