/**
 * What the server's start-up hook (instrumentation.ts) starts: the embedded
 * worker, the sweeps of version tests a stopped server left running, and (on
 * Postgres) the relay that brings other processes' runs' live text here. A
 * public file of its own, apart from the index: the hook runs outside the
 * app's server-only layer, so it imports only what it starts.
 */
export { startEmbeddedWorker } from "./embedded-worker";
export { startVersionTestSweeps } from "./version-test-sweeps";
export { relayRunTextHere } from "./process-runs";
