import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { prisma } from "./client";
import { DatabaseError, toDatabaseError } from "./database-error";

/** A workflow as the list shows it. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
}

/** A workflow with its document (parsed JSON; lib/graph validates its shape). */
export interface WorkflowRecord extends WorkflowSummary {
  createdAt: Date;
  document: unknown;
}

/** Every workflow, the most recently changed first. */
export async function listWorkflows(): Promise<WorkflowSummary[]> {
  try {
    return await prisma().workflow.findMany({
      select: { id: true, name: true, description: true, updatedAt: true },
      orderBy: [{ updatedAt: "desc" }, { name: "asc" }],
    });
  } catch (error) {
    throw toDatabaseError(error, "list the workflows");
  }
}

/** One workflow, or null when no workflow has that id. */
export async function getWorkflow(id: string): Promise<WorkflowRecord | null> {
  let row;
  try {
    row = await prisma().workflow.findUnique({ where: { id } });
  } catch (error) {
    throw toDatabaseError(error, `read workflow "${id}"`);
  }
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    document: parseDocument(row.id, row.document),
  };
}

function parseDocument(id: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DatabaseError("database-corrupt-row", `Workflow "${id}" has a document that is not valid JSON; restore a saved version or delete it.`, { cause: error });
  }
}

// ----- editing: the list's actions, the canvas's autosave and versions -----

/** A saved version as the versions list shows it. */
export interface WorkflowVersionSummary {
  number: number;
  note: string;
  createdAt: Date;
  /** The workflow's test cases against this version (see lib/runs/version-tests.ts): null when none ran. */
  testStatus: string | null;
  testsPassed: number | null;
  testsFailed: number | null;
  testSummary: string | null;
}

/** A saved version with its document (parsed JSON; lib/graph validates its shape). */
export interface WorkflowVersionRecord extends WorkflowVersionSummary {
  document: unknown;
}

/** A document as it is written: any JSON object with a name (lib/graph's Workflow, checked by the caller). */
export type StoredDocument = { name: string } & Record<string, unknown>;

const summaryFields = { id: true, name: true, description: true, updatedAt: true } as const;

/**
 * A new workflow id: the name's words and a random suffix, readable in URLs
 * and unique without asking the database, e.g. `weather-agent-3f9a2c`.
 */
export function newWorkflowId(name: string): string {
  const words = name.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").match(/[a-z0-9]+/g) ?? [];
  const stem = words.join("-").slice(0, 40).replace(/-+$/, "") || "workflow";
  return `${stem}-${randomBytes(3).toString("hex")}`;
}

/** Every workflow's name, to choose a free one for a copy or an import. */
export async function workflowNames(): Promise<Set<string>> {
  try {
    const rows = await prisma().workflow.findMany({ select: { name: true } });
    return new Set(rows.map((row) => row.name));
  } catch (error) {
    throw toDatabaseError(error, "list the workflows' names");
  }
}

/** Stores a new workflow; its document's name is the workflow's name. */
export async function createWorkflow(input: { name: string; description?: string; document: StoredDocument }): Promise<WorkflowSummary> {
  try {
    return await prisma().workflow.create({
      data: {
        id: newWorkflowId(input.name),
        name: input.name,
        description: input.description ?? "",
        document: JSON.stringify({ ...input.document, name: input.name }),
      },
      select: summaryFields,
    });
  } catch (error) {
    throw toDatabaseError(error, `create workflow "${input.name}"`);
  }
}

/** Renames a workflow and its document; null when there is no such workflow. */
export async function renameWorkflow(id: string, name: string): Promise<WorkflowSummary | null> {
  const current = await getWorkflow(id);
  if (!current) return null;
  try {
    return await prisma().workflow.update({
      where: { id },
      data: { name, document: JSON.stringify({ ...asObject(current.document), name }) },
      select: summaryFields,
    });
  } catch (error) {
    throw toDatabaseError(error, `rename workflow "${id}"`);
  }
}

/** A copy of a workflow's current document under a new name (its versions and runs stay with the original). */
export async function duplicateWorkflow(id: string, name: string): Promise<WorkflowSummary | null> {
  const current = await getWorkflow(id);
  if (!current) return null;
  return createWorkflow({ name, description: current.description, document: { ...asObject(current.document), name } });
}

/** Deletes a workflow and its versions; its runs stay, no longer linked. False when there was none. */
export async function deleteWorkflow(id: string): Promise<boolean> {
  try {
    const { count } = await prisma().workflow.deleteMany({ where: { id } });
    return count > 0;
  } catch (error) {
    throw toDatabaseError(error, `delete workflow "${id}"`);
  }
}

/**
 * Writes the document being edited (autosave). The workflow's name wins
 * over the document's, so a rename in another tab is not undone. Null when
 * there is no such workflow.
 */
export async function saveWorkflowDocument(id: string, document: StoredDocument): Promise<{ updatedAt: Date } | null> {
  try {
    const row = await prisma().workflow.findUnique({ where: { id }, select: { name: true } });
    if (!row) return null;
    return await prisma().workflow.update({
      where: { id },
      data: { document: JSON.stringify({ ...document, name: row.name }) },
      select: { updatedAt: true },
    });
  } catch (error) {
    throw toDatabaseError(error, `save workflow "${id}"`);
  }
}

/** The saved versions of a workflow, newest first. */
export async function listWorkflowVersions(workflowId: string): Promise<WorkflowVersionSummary[]> {
  try {
    return await prisma().workflowVersion.findMany({
      where: { workflowId },
      select: { number: true, note: true, createdAt: true, testStatus: true, testsPassed: true, testsFailed: true, testSummary: true },
      orderBy: { number: "desc" },
    });
  } catch (error) {
    throw toDatabaseError(error, `list the versions of workflow "${workflowId}"`);
  }
}

/**
 * Saves the document as the workflow's working document and as its next
 * numbered version, in one transaction. Null when there is no such workflow.
 */
export async function createWorkflowVersion(workflowId: string, document: StoredDocument, note: string): Promise<WorkflowVersionSummary | null> {
  try {
    return await prisma().$transaction(async (tx) => {
      const row = await tx.workflow.findUnique({ where: { id: workflowId }, select: { name: true } });
      if (!row) return null;
      const text = JSON.stringify({ ...document, name: row.name });
      const last = await tx.workflowVersion.aggregate({ where: { workflowId }, _max: { number: true } });
      await tx.workflow.update({ where: { id: workflowId }, data: { document: text } });
      return tx.workflowVersion.create({
        data: { id: randomUUID(), workflowId, number: (last._max.number ?? 0) + 1, document: text, note },
        select: { number: true, note: true, createdAt: true, testStatus: true, testsPassed: true, testsFailed: true, testSummary: true },
      });
    });
  } catch (error) {
    throw toDatabaseError(error, `save a version of workflow "${workflowId}"`);
  }
}

/** One saved version with its document, or null. */
export async function getWorkflowVersion(workflowId: string, number: number): Promise<WorkflowVersionRecord | null> {
  let row;
  try {
    row = await prisma().workflowVersion.findUnique({ where: { workflowId_number: { workflowId, number } } });
  } catch (error) {
    throw toDatabaseError(error, `read version ${number} of workflow "${workflowId}"`);
  }
  if (!row) return null;
  return { number: row.number, note: row.note, createdAt: row.createdAt, testStatus: row.testStatus, testsPassed: row.testsPassed, testsFailed: row.testsFailed, testSummary: row.testSummary, document: parseDocument(`${workflowId} v${number}`, row.document) };
}

function asObject(document: unknown): Record<string, unknown> {
  return typeof document === "object" && document !== null && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
}
