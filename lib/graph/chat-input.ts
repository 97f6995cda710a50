import { startFields } from "./start-trigger";

/** The shape of a document this reads: its nodes' types and config. */
interface DocumentNodes {
  nodes?: ReadonlyArray<{ type?: unknown; config?: unknown }>;
}

/**
 * The Start field a chat message goes into: the one named `message`, else
 * the Start's only text field, else its first required text field. Null
 * when the workflow has no such field (it cannot be chatted with) or its
 * Start is not run by hand (a webhook or a schedule).
 *
 * @example chatInputField({ nodes: [{ type: "start", config: { inputs: [{ name: "question", type: "string" }] } }] }) // → "question"
 */
export function chatInputField(document: unknown): string | null {
  const nodes = (document as DocumentNodes | null)?.nodes;
  const start = Array.isArray(nodes) ? nodes.find((node) => node?.type === "start") : undefined;
  if (!start) return null;
  const config = (start.config ?? {}) as Record<string, unknown>;
  if (config.trigger !== undefined && config.trigger !== "manual") return null;
  const texts = startFields(config).filter((field) => field.type === "string");
  const named = texts.find((field) => field.name === "message");
  if (named) return named.name;
  if (texts.length === 1) return texts[0].name;
  return texts.find((field) => field.required)?.name ?? null;
}
