/**
 * Unoverse's `scope` root (the platform's ids for the run) read through
 * Switchboard's `run` root. Switchboard has no chats or conversations: a
 * conversation is the run itself. The platform's own service URLs
 * (scope.engineUrl, scope.platformUrl) have no counterpart and stay a blocker.
 */
export const scopeFields: Readonly<Record<string, string>> = {
  workflowId: "run.workflowId",
  executionId: "run.id",
  nodeId: "run.nodeId",
  userId: "run.startedBy",
  conversationId: "run.id",
  chatId: "run.id",
};

const scopeReading = /(?<![\w$.])scope\.([A-Za-z_$][\w$]*)/g;

/** Replaces each `scope.<field>` this import knows; other fields are left for the blocker check to report. */
export function readScopeAsRun(text: string): string {
  return text.includes("scope.") ? text.replace(scopeReading, (whole, field: string) => (Object.hasOwn(scopeFields, field) ? scopeFields[field] : whole)) : text;
}

/** The note for a node that read `scope`, or undefined. */
export function scopeNote(text: string): string | undefined {
  const fields = [...new Set([...text.matchAll(scopeReading)].map((match) => match[1]).filter((field) => Object.hasOwn(scopeFields, field)))];
  if (!fields.length) return undefined;
  return `the \`scope\` root is read as \`run\`: ${fields.map((field) => `scope.${field} → ${scopeFields[field]}`).join(", ")}`;
}
