import type { McpServer } from "../generated/prisma/client";
import type { EntryProblem, ServerDestination, ServerEntry } from "../mcp";

/** The McpServer columns an entry is written to. */
export type McpServerData = Omit<McpServer, "createdAt" | "updatedAt">;

// allowedAgents is retired (grants replaced it): its column is never read into an entry.
const jsonColumns = { args: "args", env: "env", headers: "headers", secretNames: "secrets", allowedTools: "allowedTools", oauth: "oauth", approval: "approval" } as const;

/**
 * A row as the entry it claims to be, for the registry's schema to judge:
 * null columns are left out, JSON columns are parsed. A JSON column that
 * does not parse is a problem named after its field.
 */
export function entryInputFromRow(row: McpServer): { ok: true; input: Record<string, unknown> } | { ok: false; problem: EntryProblem } {
  const input: Record<string, unknown> = {};
  const plain = ["id", "name", "description", "transport", "command", "url", "timeoutMs", "toolTimeoutMs", "maxRetries", "maxConcurrentCalls", "enabled"] as const;
  for (const column of plain) if (row[column] !== null) input[column] = row[column];
  for (const [column, field] of Object.entries(jsonColumns) as Array<[keyof typeof jsonColumns, string]>) {
    const text = row[column];
    if (text === null) continue;
    try {
      input[field] = JSON.parse(text);
    } catch {
      return { ok: false, problem: { field, message: `the stored ${field} is not valid JSON` } };
    }
  }
  return { ok: true, input };
}

/** The columns of a validated entry. */
export function rowFromEntry(entry: ServerEntry): McpServerData {
  const stdio = entry.transport === "stdio" ? entry : null;
  const remote = entry.transport !== "stdio" ? entry : null;
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description ?? null,
    transport: entry.transport,
    command: stdio?.command ?? null,
    args: stdio ? JSON.stringify(stdio.args) : null,
    env: stdio?.env ? JSON.stringify(stdio.env) : null,
    url: remote?.url ?? null,
    headers: remote?.headers ? JSON.stringify(remote.headers) : null,
    secretNames: entry.secrets ? JSON.stringify(entry.secrets) : null,
    timeoutMs: entry.timeoutMs,
    toolTimeoutMs: entry.toolTimeoutMs ?? null,
    maxRetries: entry.maxRetries,
    maxConcurrentCalls: entry.maxConcurrentCalls ?? null,
    allowedAgents: null,
    allowedTools: entry.allowedTools ? JSON.stringify(entry.allowedTools) : null,
    oauth: remote?.oauth ? JSON.stringify(remote.oauth) : null,
    approval: entry.approval ? JSON.stringify(entry.approval) : null,
    enabled: entry.enabled,
  };
}

/** Where a row says its server is, read without trusting it (to open the secrets sealed for it). */
export function rowDestination(row: McpServer): ServerDestination {
  let args: unknown = [];
  if (row.args !== null) {
    try {
      args = JSON.parse(row.args);
    } catch {
      args = row.args;
    }
  }
  return { transport: row.transport, command: row.command, args, url: row.url };
}

/** Where a valid entry says its server is. */
