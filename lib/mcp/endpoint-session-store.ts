/**
 * The port the outside MCP endpoint keeps its 2025-era sessions through
 * (lib/mcp/workflow-endpoint-sessions.ts): declared here, implemented in the
 * database (lib/db/mcp-endpoint-store.ts), so lib/mcp never imports lib/db.
 */

/** A stored 2025-era session: what rebuilding its endpoint needs, and whose it is. */
export interface StoredEndpointSession {
  id: string;
  workflowId: string;
  /** The person whose token opened it (`environment` for SWITCHBOARD_MCP_TOKEN). */
  ownerId: string;
  protocolVersion: string;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
  capabilities: Record<string, unknown>;
  createdAt: Date;
  lastSeenAt: Date;
  closedAt: Date | null;
}

/** Where the endpoint's sessions are kept. */
export interface EndpointSessionStore {
  create(session: Omit<StoredEndpointSession, "createdAt" | "lastSeenAt" | "closedAt">): Promise<void>;
  find(id: string): Promise<StoredEndpointSession | null>;
  /** Records that the session was used now. */
  touch(id: string, now?: Date): Promise<void>;
  /** Ends the session for every process and cancels its tasks still working (their runs are asked to stop). */
  close(id: string, now?: Date): Promise<void>;
  /** Whether a task of the session is still working (an idle session with one is kept). */
  hasWorkingTask(id: string): Promise<boolean>;
  /**
   * Closes the sessions last seen before `cutoff` that have no task working,
   * and forgets the tasks of sessions closed before `forgetBefore` and the
   * ended tasks of other scopes last updated before then. Returns the ids
   * of the sessions it closed.
   */
  sweep(cutoff: Date, forgetBefore: Date): Promise<string[]>;
}

/** The task scope of a 2025-era session: its tasks/list lists these. */
export function sessionTaskScope(sessionId: string): string {
  return `session:${sessionId}`;
}

/** The task scope of a 2026-07-28 host: no session, so one person's tasks on one workflow. */
export function ownerTaskScope(ownerId: string, workflowId: string): string {
  return `owner:${ownerId}:${workflowId}`;
}
