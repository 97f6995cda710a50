import type { WorkflowEndpoint } from "./workflow-endpoint";

export interface EndpointTaskEntry {
  workflowId: string;
  taskId: string;
  /** The endpoint that started the task (and follows its run while the host may be asked). */
  endpoint: WorkflowEndpoint;
}

/**
 * Where a 2026-07-28 request finds a task an earlier request started: no
 * session ties them together, so the task's id alone leads to the endpoint
 * that runs it.
 */
export interface EndpointTaskIndex {
  add(workflowId: string, taskId: string, endpoint: WorkflowEndpoint): void;
  find(workflowId: string, taskId: string): EndpointTaskEntry | undefined;
  /** The host has read the task's end: its result is kept for the retention time, then dropped. */
  ended(workflowId: string, taskId: string): void;
  closeAll(): Promise<void>;
}

export interface InMemoryEndpointTaskIndexOptions {
  /** How long an ended task's result stays readable (default 10 min). */
  retentionMs?: number;
  /** The endpoints keep their tasks in a store shared between processes (the database): an endpoint is closed as soon as its tasks stop running (default true). */
  sharedStore?: boolean;
}

/** A task just created may not have started its sub-flow yet: its endpoint is kept at least this long. */
const startGraceMs = 5_000;

interface Entry extends EndpointTaskEntry {
  /** When the task was seen ended, or undefined while it may still run. */
  endedAt?: number;
  addedAt: number;
}

/**
 * The task index of one server process: which endpoint started a task in
 * this process. Other processes find the task in the shared store
 * (lib/db/mcp-endpoint-store.ts); here the endpoint is kept open while it
 * is busy with the task (it follows the task's queued run to put the run's
 * questions to the host, see EndpointTasks) and closed once it is not. A
 * task a host never polls to its end is dropped a day after it started.
 */
export class InMemoryEndpointTaskIndex implements EndpointTaskIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly retentionMs: number;
  private readonly sharedStore: boolean;
  /** Every endpoint that runs or ran an indexed task and is not closed yet. */
  private known = new Set<WorkflowEndpoint>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: InMemoryEndpointTaskIndexOptions = {}) {
    this.retentionMs = options.retentionMs ?? 10 * 60_000;
    this.sharedStore = options.sharedStore ?? true;
  }

  add(workflowId: string, taskId: string, endpoint: WorkflowEndpoint): void {
    this.entries.set(key(workflowId, taskId), { workflowId, taskId, endpoint, addedAt: Date.now() });
    this.known.add(endpoint);
    if (!this.sweeper) {
      this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1_000, this.retentionMs / 2)));
      this.sweeper.unref?.();
    }
  }

  find(workflowId: string, taskId: string): EndpointTaskEntry | undefined {
    return this.entries.get(key(workflowId, taskId));
  }

  ended(workflowId: string, taskId: string): void {
    const entry = this.entries.get(key(workflowId, taskId));
    if (entry && entry.endedAt === undefined) entry.endedAt = Date.now();
  }

  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const endpoints = new Set([...this.entries.values()].map((entry) => entry.endpoint));
    this.entries.clear();
    this.known.clear();
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.allSettled([...endpoints].map((endpoint) => endpoint.close()));
  }

  /** Drops what is past its time, then closes each endpoint nothing refers to any more. */
  async sweep(now = Date.now()): Promise<void> {
    const dayMs = 24 * 60 * 60_000;
    for (const [id, entry] of this.entries) {
      // A task whose sub-flow is over has its result in the shared store when there is one; the endpoint that ran it is no longer needed then.
      const over = this.sharedStore && !entry.endpoint.busy() && now - entry.addedAt > startGraceMs;
      const expired = over || (entry.endedAt !== undefined ? now - entry.endedAt > this.retentionMs : now - entry.addedAt > dayMs);
      if (expired) this.entries.delete(id);
    }
    const kept = new Set([...this.entries.values()].map((entry) => entry.endpoint));
    const dropped = new Set<WorkflowEndpoint>();
    for (const endpoint of this.known) if (!kept.has(endpoint)) dropped.add(endpoint);
    this.known = kept;
    await Promise.allSettled([...dropped].map((endpoint) => endpoint.close()));
    if (this.entries.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

function key(workflowId: string, taskId: string): string {
  return `${workflowId}\u0000${taskId}`;
}
