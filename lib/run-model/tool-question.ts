/**
 * A question a tool asks a person while it runs (MCP elicitation), in the
 * shape every layer above lib/mcp sees, whichever protocol revision
 * carried it: form mode asks for values fitting a flat JSON Schema, URL
 * mode asks the person to open a page.
 */
export type ToolQuestion =
  | { mode: "form"; message: string; requestedSchema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; elicitationId?: string };

/** A person's answer: accept (with the values, in form mode), decline, or cancel (dismissed without choosing). */
export type QuestionAnswer = { action: "accept"; content?: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

/** Answers a question a tool asked during one call; set on the call's meta only where someone can answer (the run has a journal). */
export type QuestionAsker = (question: ToolQuestion) => Promise<QuestionAnswer>;
