import "server-only";
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
