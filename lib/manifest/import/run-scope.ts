/**
 * Unoverse's `scope` root (the platform's ids for the run) read through
 * Switchboard's `run` root. Switchboard has no chats or conversations: a
 * conversation is the run itself. The platform's own service URLs
 * (scope.engineUrl, scope.platformUrl) become base URLs in the node's config
 * (see platformUrls).
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

/**
 * Unoverse's own services (its engine, its runtime) that a node calls at
 * `scope.engineUrl` / `scope.platformUrl`: Switchboard has no such service,
 * so each becomes a base URL in the node's config, set by the workflow's
 * author to where that Unoverse service answers (a private address must be
 * listed in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS, like any other). The call
 * URL is then `return config.engineUrl + '/…'`: its host comes from config.
 */
export const platformUrls: Readonly<Record<string, { title: string; description: string }>> = {
  engineUrl: { title: "Unoverse engine URL", description: "Where the Unoverse engine these calls were written for answers, e.g. http://127.0.0.1:4101 (Switchboard has no such service; a private address must be listed in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS)." },
  platformUrl: { title: "Unoverse runtime URL", description: "Where the Unoverse runtime these calls were written for answers, e.g. http://127.0.0.1:4106 (Switchboard has no such service; a private address must be listed in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS)." },
};

const platformReading = /(?<![\w$.])scope\.(engineUrl|platformUrl)\b/g;

/** `scope.engineUrl` → `config.engineUrl` (and platformUrl). */
export function readPlatformUrls(text: string): string {
  return text.includes("scope.") ? text.replace(platformReading, (_whole, field: string) => `config.${field}`) : text;
}

/** The platform URLs a text reads. */
export function platformUrlsRead(text: string): string[] {
  return [...new Set([...text.matchAll(platformReading)].map((match) => match[1]))].sort();
}
