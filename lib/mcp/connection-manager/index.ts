// The run's connection manager: MCP servers from the registry, reached with retries, timeouts,
// a concurrency cap, a manifest cache and per-tool circuit breakers. Not server-only: the CLI uses it.
export { ConnectionManager, type ConnectionManagerOptions, type ServerProblem } from "./connection-manager";
export { CircuitBreaker, defaultCircuitBreaker, type Admission, type CircuitBreakerOptions, type CircuitState } from "./circuit-breaker";
export { ServerUnreachableError, type Connector, type ConnectRequest, type ManagedConnection } from "./server-link";
export { readToolManifest, type ManifestTool, type ListedToolProblem, type ToolManifest } from "./tool-manifest";
export { Semaphore } from "./semaphore";
export { ManifestCache } from "./manifest-cache";
export { withBackoff, backoffDelay, realSleep, type Sleep, type BackoffOptions } from "./backoff";
export { isConnectionLoss } from "./connection-loss";
