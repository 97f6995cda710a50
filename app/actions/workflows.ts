"use server";

import { requireRole } from "@/lib/auth";
import path from "node:path";
import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { z } from "zod";
import { canvasNodeTypes, canvasCatalogue, validateConfig } from "@/lib/canvas";
import { createWorkflow, createWorkflowVersion, deleteWorkflow, duplicateWorkflow, getWorkflow, getWorkflowVersion, listWorkflowVersions, renameWorkflow, saveWorkflowDocument, workflowNames, type WorkflowVersionSummary, prisma } from "@/lib/db/app";
import { DatabaseError, databaseUrl } from "@/lib/db";
import { recordVersionTests, runService, versionItemOf, versionTestStart, workflowCases } from "@/lib/runs";
import { type GraphProblem, parseWorkflow, startScheduleIssues, validateWorkflow, type Workflow } from "@/lib/graph";
import { lintNodes } from "@/lib/manifest";
import type { ActionFailure, ActionResult, ImportResult, OriginReview, VersionItem } from "@/components/workflows/action-types";
import { reviewOrigins } from "@/app/workflows/[id]/grants/origin-review";

/**
 * The workflows' server actions: parse the input, call lib/db, answer
 * `{ ok: true, ... }` or `{ ok: false, error, field? }` — never a throw the
 * page cannot show. `field` names the form field at fault.
 */

const workflowId = z.string().trim().min(1, "Which workflow? The id is missing.").max(200);
const workflowName = z.string().trim().min(1, "Give the workflow a name.").max(120, "Keep the name under 120 characters.");
const versionNote = z.string().trim().max(500, "Keep the note under 500 characters.");

/** A new, empty workflow with a Start node, as n8n starts with a trigger. */
export async function createWorkflowAction(name: unknown): Promise<ActionResult<{ id: string }>> {
  await requireRole("editor");
  const parsedName = workflowName.safeParse(name);
  if (!parsedName.success) return failure(parsedName.error, "name");
  return guard(async () => {
    const document: Workflow = {
      version: 1,
      name: parsedName.data,
      // One input field to start from: most workflows take a question or a task; rename it in the inspector.
      nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "input", type: "string", description: "What the run is about.", required: true }] } }],
      edges: [],
    };
    const created = await createWorkflow({ name: parsedName.data, document });
    revalidatePath("/");
    return { ok: true, id: created.id };
  });
}

export async function renameWorkflowAction(id: unknown, name: unknown): Promise<ActionResult<{ name: string }>> {
  await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  const parsedName = workflowName.safeParse(name);
  if (!parsedName.success) return failure(parsedName.error, "name");
  return guard(async () => {
    const renamed = await renameWorkflow(parsedId.data, parsedName.data);
    if (!renamed) return notFound(parsedId.data);
    revalidatePath("/");
    revalidatePath(`/workflows/${parsedId.data}`);
    return { ok: true, name: renamed.name };
  });
}

/** A copy named "<name> (copy)", or "(copy 2)"... when that is taken. */
export async function duplicateWorkflowAction(id: unknown): Promise<ActionResult<{ id: string; name: string }>> {
  await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  return guard(async () => {
    const original = await getWorkflow(parsedId.data);
    if (!original) return notFound(parsedId.data);
    const name = freeName(`${original.name} (copy)`, await workflowNames());
    const copy = await duplicateWorkflow(parsedId.data, name);
    if (!copy) return notFound(parsedId.data);
    revalidatePath("/");
    return { ok: true, id: copy.id, name: copy.name };
  });
}

export async function deleteWorkflowAction(id: unknown): Promise<ActionResult> {
  await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  return guard(async () => {
    if (!(await deleteWorkflow(parsedId.data))) return notFound(parsedId.data);
    revalidatePath("/");
    return { ok: true };
  });
}

/** Largest import accepted, in characters; a server action's body is capped at 1 MB anyway. */
const importLimit = 900_000;

/**
 * Imports a workflow from JSON text as a NEW workflow (nothing is
 * overwritten). Refused, with every problem listed, when the text is not
 * JSON, not a workflow document, or the workflow has errors by the same
 * validation a run applies (warnings do not stop an import).
 */
export async function importWorkflowAction(text: unknown): Promise<ImportResult> {
  await requireRole("editor");
  if (typeof text !== "string" || text.trim() === "") return { ok: false, error: "Choose a workflow JSON file to import; this one is empty.", field: "file" };
  if (text.length > importLimit) return { ok: false, error: `The file is too large to import (${text.length} characters; at most ${importLimit}).`, field: "file" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The file is not JSON: ${(error as Error).message}. Nothing was imported.`, field: "file", problems: [] };
  }
  const parsed = parseWorkflow(json);
  if (!parsed.ok) return refused(parsed.problems);
  const catalogue = canvasCatalogue(await lintNodes(path.join(process.cwd(), "nodes")));
  const errors = validateWorkflow(parsed.workflow, canvasNodeTypes(catalogue), { validateConfig }).filter((problem) => problem.severity === "error");
  if (errors.length > 0) return refused(errors);
  return guard(async () => {
    const name = freeName(parsed.workflow.name, await workflowNames(), "imported");
    const created = await createWorkflow({ name, description: parsed.workflow.description ?? "", document: { ...parsed.workflow, name } });
    revalidatePath("/");
    // An imported document brings no grants: every credentialed call to an origin outside the credential's list waits for an owner.
    const review = await reviewOrigins(created.id, null, parsed.workflow);
    return { ok: true, id: created.id, name: created.name, ...review };
  });
}

/**
 * Autosave: writes the document being edited. A document that is not a
 * workflow is refused; one with problems is saved (work in progress). The
 * answer names each credentialed call this save sent to an origin not
 * approved for that credential here (saved anyway; runs refuse it until
 * an owner approves).
 */
export async function saveWorkflowDocumentAction(id: unknown, document: unknown): Promise<ActionResult<{ savedAt: string } & OriginReview>> {
  await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return { ok: false, error: `Not saved: ${parsed.problems.map((problem) => problem.message).join("; ")}` };
  const schedule = scheduleRefusal(parsed.workflow);
  if (schedule) return schedule;
  return guard(async () => {
    const previous = await getWorkflow(parsedId.data);
    if (!previous) return notFound(parsedId.data);
    const saved = await saveWorkflowDocument(parsedId.data, parsed.workflow);
    if (!saved) return notFound(parsedId.data);
    const before = parseWorkflow(previous.document);
    const review = await reviewOrigins(parsedId.data, before.ok ? before.workflow : null, parsed.workflow);
    return { ok: true, savedAt: saved.updatedAt.toISOString(), ...review };
  });
}

/** Saves the document and a numbered version of it with a note; the workflow's test cases then run against it (see recordVersionTests). */
export async function saveWorkflowVersionAction(id: unknown, document: unknown, note: unknown): Promise<ActionResult<{ version: VersionItem; versions: VersionItem[] }>> {
  const actor = await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  const parsedNote = versionNote.safeParse(note ?? "");
  if (!parsedNote.success) return failure(parsedNote.error, "note");
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return { ok: false, error: `Not saved: ${parsed.problems.map((problem) => problem.message).join("; ")}` };
  const schedule = scheduleRefusal(parsed.workflow);
  if (schedule) return schedule;
  return guard(async () => {
    const version = await createWorkflowVersion(parsedId.data, parsed.workflow, parsedNote.data);
    if (!version) return notFound(parsedId.data);
    // The workflow's cases run against the version after the save has answered; the versions list shows their result when it is stored.
    const found = await workflowCases(parsedId.data).catch(() => null);
    const testing = Boolean(found?.cases.length);
    if (found && testing) {
      const saved = { workflowId: parsedId.data, number: version.number, document: parsed.workflow };
      // Marked running by this process first: were it killed before after() stores the result, the sweep takes the test up again.
      await prisma().workflowVersion.update({ where: { workflowId_number: { workflowId: saved.workflowId, number: saved.number } }, data: versionTestStart() });
      after(() => recordVersionTests(prisma(), saved, { service: runService(), databaseUrl: databaseUrl(), by: actor.email, found, started: true }));
    }
    return { ok: true, version: versionItem(testing ? { ...version, testStatus: "running" } : version), versions: (await listWorkflowVersions(parsedId.data)).map(versionItem) };
  });
}

export async function listWorkflowVersionsAction(id: unknown): Promise<ActionResult<{ versions: VersionItem[] }>> {
  await requireRole("viewer");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  return guard(async () => ({ ok: true, versions: (await listWorkflowVersions(parsedId.data)).map(versionItem) }));
}

/** Runs the workflow's test cases again against a saved version (offered when its test was interrupted); the result is stored as after a save. */
export async function retestWorkflowVersionAction(id: unknown, number: unknown): Promise<ActionResult<{ versions: VersionItem[] }>> {
  const actor = await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  const parsedNumber = z.number().int().min(1).safeParse(number);
  if (!parsedNumber.success) return { ok: false, error: "Which version? Its number is missing." };
  return guard<{ versions: VersionItem[] }>(async () => {
    const version = await getWorkflowVersion(parsedId.data, parsedNumber.data);
    if (!version) return { ok: false, error: `Workflow "${parsedId.data}" has no version ${parsedNumber.data}.` };
    const parsed = parseWorkflow(version.document);
    if (!parsed.ok) return { ok: false, error: `Version ${parsedNumber.data} is not a valid workflow document; its cases cannot run.` };
    const found = await workflowCases(parsedId.data);
    if (found.cases.length === 0) return { ok: false, error: "The workflow has no test cases to run." };
    const saved = { workflowId: parsedId.data, number: parsedNumber.data, document: parsed.workflow };
    await prisma().workflowVersion.update({ where: { workflowId_number: { workflowId: saved.workflowId, number: saved.number } }, data: { ...versionTestStart(), testAttempts: 1 } });
    after(() => recordVersionTests(prisma(), saved, { service: runService(), databaseUrl: databaseUrl(), by: actor.email, found, started: true }));
    return { ok: true, versions: (await listWorkflowVersions(parsedId.data)).map(versionItem) };
  });
}

/**
 * Makes a saved version the working document again. When the working
 * document differs from the newest version, it is saved first as a version
 * ("Before restoring version N"), so a restore never loses work.
 */
export async function restoreWorkflowVersionAction(id: unknown, number: unknown): Promise<ActionResult<{ document: Workflow; versions: VersionItem[] } & OriginReview>> {
  await requireRole("editor");
  const parsedId = workflowId.safeParse(id);
  if (!parsedId.success) return failure(parsedId.error);
  const parsedNumber = z.number().int().min(1).safeParse(number);
  if (!parsedNumber.success) return { ok: false, error: "Which version? Its number is missing." };
  return guard(async () => {
    const [current, version] = await Promise.all([getWorkflow(parsedId.data), getWorkflowVersion(parsedId.data, parsedNumber.data)]);
    if (!current) return notFound(parsedId.data);
    if (!version) return { ok: false, error: `Workflow "${parsedId.data}" has no version ${parsedNumber.data}.` };
    const restored = parseWorkflow(version.document);
    if (!restored.ok) return { ok: false, error: `Version ${parsedNumber.data} is not a valid workflow document and cannot be restored.` };
    const versions = await listWorkflowVersions(parsedId.data);
    const newest = versions[0] ? await getWorkflowVersion(parsedId.data, versions[0].number) : null;
    const working = parseWorkflow(current.document);
    if (working.ok && JSON.stringify(newest?.document ?? null) !== JSON.stringify(current.document)) {
      await createWorkflowVersion(parsedId.data, working.workflow, `Before restoring version ${parsedNumber.data}`);
    }
    await saveWorkflowDocument(parsedId.data, restored.workflow);
    const review = await reviewOrigins(parsedId.data, working.ok ? working.workflow : null, restored.workflow);
    return { ok: true, document: { ...restored.workflow, name: current.name }, versions: (await listWorkflowVersions(parsedId.data)).map(versionItem), ...review };
  });
}

// ----- helpers -----

const versionItem: (version: WorkflowVersionSummary) => VersionItem = versionItemOf;

/** The name itself when free, else "<name> (<word>)", "<name> (<word> 2)"... */
function freeName(name: string, taken: ReadonlySet<string>, word?: string): string {
  if (!taken.has(name)) return name;
  const base = word ? `${name} (${word}` : name.replace(/\)$/, "");
  if (word && !taken.has(`${base})`)) return `${base})`;
  for (let index = 2; ; index++) {
    const candidate = `${base} ${index})`;
    if (!taken.has(candidate)) return candidate;
  }
}

function refused(problems: GraphProblem[]): ActionFailure & { problems: GraphProblem[] } {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return { ok: false, error: `This file cannot be imported: ${count}. Nothing was imported.`, field: "file", problems };
}

function failure(error: z.ZodError, field?: string): ActionFailure {
  return { ok: false, error: error.issues[0]?.message ?? "The input is not valid.", ...(field ? { field } : {}) };
}

function notFound(id: string): ActionFailure {
  return { ok: false, error: `There is no workflow "${id}"; it may have been deleted.` };
}

/** Turns a storage failure into an answer the page can show. */
async function guard<T extends object>(work: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * A Start on schedule whose schedule cannot fire (an invalid cron
 * expression, an unknown time zone) is refused at save, saying what is
 * wrong: saved, it would sit silent. Other problems are saved as work in
 * progress.
 */
function scheduleRefusal(workflow: Workflow): ActionFailure | null {
  for (const node of workflow.nodes) {
    if (node.type !== "start") continue;
    const [issue] = startScheduleIssues(node.config);
    if (issue) return { ok: false, error: `Not saved: the schedule of ${node.label ?? node.id}: ${issue.message}`, field: `nodes.${node.id}.config.${issue.field ?? "cron"}` };
  }
  return null;
}
