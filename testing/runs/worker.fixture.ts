import { type EngineEnvironment } from "../../lib/engine";
import { createLocalEnvironment } from "../../lib/runs/local-environment";
import { startWorkerRuntime, type WorkerRuntime } from "../../lib/runs/worker-runtime";

/**
 * TEST SUPPORT: a worker on a test's database with quick queue timings and
 * a local environment over the test's nodes folder, its models and tools
 * replaced by the test's doubles (`overrides`, built again for every run).
 */
export function startFixtureWorker(options: { databaseUrl: string; nodesDir: string; overrides: () => Partial<EngineEnvironment>; leaseMs?: number }): WorkerRuntime {
  return startWorkerRuntime({
    databaseUrl: options.databaseUrl,
    timings: { leaseMs: options.leaseMs ?? 2_000, heartbeatMs: 100, pollMs: 50 },
    environment: () => createLocalEnvironment({ nodesDir: options.nodesDir, overrides: options.overrides() }),
  });
}
