import { fieldsInputSchema, readFields } from "./input-fields";
import type { WorkflowNode } from "./workflow";

/** A Task Start as the agent sees it: one tool. */
export interface TaskToolDefinition {
  /** The tool's name, from the title: `Summarize an article` → `summarize_an_article`. */
  name: string;
  /** The title as written. */
  title: string;
  /** The description, then "When to use: …" when given. */
  description: string;
  inputSchema: ReturnType<typeof fieldsInputSchema>;
}

/**
 * The tool a Task Start offers over a task edge: named by its title,
 * described by its description and when to use, taking its input fields.
 * Undefined while it has no title or description (validation says so).
 */
export function taskToolDefinition(node: Pick<WorkflowNode, "type" | "config">): TaskToolDefinition | undefined {
  if (node.type !== "task-start") return undefined;
  const text = (key: string) => (typeof node.config[key] === "string" ? (node.config[key] as string).trim() : "");
  const title = text("title");
  const description = text("description");
  if (!title || !description) return undefined;
  const whenToUse = text("whenToUse");
  return {
    name: toolName(title),
    title,
    description: whenToUse ? `${description}\n\nWhen to use: ${whenToUse}` : description,
    inputSchema: fieldsInputSchema(readFields(node.config.inputs)),
  };
}

/** Lower-case words joined by _, letters and digits only, at most 64 characters (what model APIs accept). */
export function toolName(title: string): string {
  const words = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const name = words.join("_").slice(0, 64).replace(/_+$/, "");
  return /^[a-z]/.test(name) ? name : `task_${name}`.slice(0, 64).replace(/_+$/, "");
}
