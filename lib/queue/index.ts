// lib/queue: the run queue's port and the worker that drains it. Imports no other room:
// lib/db implements the port (database-run-queue.ts), lib/runs wires the worker to the engine.
export { type ClaimedRun, defaultQueueTimings, type Heartbeat, type QueueTimings, queueTimingsFromEnvironment, type RunQueue } from "./run-queue";
export { type ExecuteRun, newWorkerId, type RunSignals, RunWorker, type RunWorkerOptions } from "./run-worker";
