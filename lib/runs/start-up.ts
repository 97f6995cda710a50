/**
 * What the server's start-up hook (instrumentation.ts) starts: the embedded
 * worker and the sweeps of version tests a stopped server left running. A
 * public file of its own, apart from the index: the hook runs outside the
 * app's server-only layer, so it imports only what it starts.
 */
export { startEmbeddedWorker } from "./embedded-worker";
export { startVersionTestSweeps } from "./version-test-sweeps";
