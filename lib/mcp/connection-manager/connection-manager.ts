import { type AgentTool, type McpAgentRef, McpResolveError, type McpResolveOptions, type McpSourceRequest, type McpToolResolver } from "../../tools";
import { connectEntry } from "../connect-entry";
import type { OAuthStateStore } from "../oauth/oauth-state";
import type { ServerEntry, ServerRegistry } from "../registry";
import { realSleep, type Sleep } from "./backoff";
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitState, defaultCircuitBreaker } from "./circuit-breaker";
import { ManifestCache } from "./manifest-cache";
import { managedCall } from "./managed-call";
import { Semaphore } from "./semaphore";
import { type Connector, ServerLink } from "./server-link";
import { serverDefaultFor } from "../../manifest";
import { readToolManifest, type ToolManifest } from "./tool-manifest";
import { protocolHints } from "../tool-hints";

export interface ConnectionManagerOptions {
  /** How long a server's tool manifest is reused (ms); 0 asks tools/list on every resolve. Default 5 minutes. */
  cacheTtlMs?: number;
  /** Per-call timeout when the entry sets no `toolTimeoutMs` (ms); 0 disables it. Default 30 s. */
  defaultToolTimeoutMs?: number;
  /** Concurrency cap when the entry sets no `maxConcurrentCalls`; 0 means none. Default 0. */
  defaultMaxConcurrentCalls?: number;
  /** Per-tool circuit breakers (default 5 failures, 30 s cool-down, 2 successes); null turns them off. */
  circuitBreaker?: Partial<CircuitBreakerOptions> | null;
  /** The wait before the first connection retry; doubles on each next one. Default 250 ms. */
  retryBaseDelayMs?: number;
  /** Opens a session with an entry (default connectEntry: stdio, Streamable HTTP, SSE behind the URL guard). */
  connect?: Connector;
  /** Where OAuth servers' tokens are kept (the default connector sends, refreshes and saves them there). */
  oauthStore?: OAuthStateStore;
  /** The clock of the manifest cache and the breakers (ms). */
  now?: () => number;
  /** How backoff waits; tests pass one that does not. */
  sleep?: Sleep;
  /** Every secret value put into a connection, for redaction (the engine also passes one per resolve). */
  onSecret?: (value: string) => void;
  /** A server or one of its tools that cannot be offered, and why. */
  onProblem?: (problem: ServerProblem) => void;
  /** Sessions declare MCP elicitation and route the servers' questions to the call's `ask`: set only where a person can answer (the app's runs, with a journal and a Questions page). */
  answersQuestions?: boolean;
  /** Every session opened: first connections and reconnections. */
  onConnected?: (serverId: string) => void;
  /** A server's tools as just listed (their names): the app keeps the palette's tool index fresh with them. */
  onToolsListed?: (entry: ServerEntry, toolNames: string[]) => void;
  /** A server said its tools changed (notifications/tools/list_changed). */
  onToolsChanged?: (entry: ServerEntry) => void;
}

/** Why a server, or one tool of it, is not offered. `tool` null: the whole server. */
export interface ServerProblem {
  serverId: string;
  tool: string | null;
  message: string;
}

/**
 * The run's way to registered MCP servers: an McpToolResolver over a
 * ServerRegistry. One per run; `closeAll()` when the run ends. It
 * - connects on first use, retrying with exponential backoff (`maxRetries`);
 * - caches each server's tool manifest (`cacheTtlMs`), keeps the good tools
 *   of a list with a bad one and reports the bad one (`problems()`);
 * - guards every call (see managedCall): a per-tool circuit breaker, the
 *   server's `maxConcurrentCalls`, a per-tool timeout, reconnect-once when
 *   the session was lost;
 * - registers the secrets it connects with, for redaction.
 * The tools it returns write no trace rows: the engine wraps them.
 *
 * @example
 * const manager = new ConnectionManager(new PrismaServerRegistry(prisma()));
 * try { await runWorkflow({ ..., env: { ...env, mcpTools: manager } }); } finally { await manager.closeAll(); }
 */
export class ConnectionManager implements McpToolResolver {
  readonly #links = new Map<string, Promise<ServerLink>>();
  readonly #slots = new Map<string, Semaphore>();
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #manifests: ManifestCache<ToolManifest>;
  /** Sessions whose tools/list_changed already clears their server's manifest. */
  readonly #watched = new WeakSet<object>();
  /** Lists in progress, so agents resolving one server at once share one tools/list. */
  readonly #listing = new Map<string, Promise<ToolManifest>>();
  readonly #secrets = new Set<string>();
  readonly #secretListeners = new Set<(value: string) => void>();
  readonly #problems = new Map<string, ServerProblem[]>();
  readonly #breakerOptions: CircuitBreakerOptions | null;
  readonly #now: () => number;
  /** Bumped by closeAll: a call that began before it never opens a new session after it. */
  #epoch = 0;

  constructor(
    private readonly registry: ServerRegistry,
    private readonly options: ConnectionManagerOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#manifests = new ManifestCache(options.cacheTtlMs ?? 5 * 60_000, this.#now);
    this.#breakerOptions = options.circuitBreaker === null ? null : { ...defaultCircuitBreaker, ...options.circuitBreaker };
    if (options.onSecret) this.#secretListeners.add(options.onSecret);
  }

  async resolve(source: McpSourceRequest, agent: McpAgentRef, resolveOptions: McpResolveOptions = {}): Promise<AgentTool[]> {
    if (resolveOptions.onSecret) this.#listen(resolveOptions.onSecret);
    const link = await this.#link(source.serverId);
    const manifest = await this.#manifest(link, resolveOptions.signal);
    const wanted = source.toolNames ? new Set(source.toolNames) : null;
    const refused = manifest.problems.filter((problem) => problem.tool !== null && wanted?.has(problem.tool));
    if (refused.length) {
      throw new McpResolveError("server-unavailable", source.serverId, `MCP server '${source.serverId}': ${refused.map((problem) => problem.message).join("; ")}`);
    }
    // The registry's allowlist (set on the server's page) narrows what any workflow may take.
    const allowed = link.entry.allowedTools ? new Set(link.entry.allowedTools) : null;
    const forbidden = allowed && wanted ? [...wanted].filter((name) => !allowed.has(name)) : [];
    if (forbidden.length) {
      throw new McpResolveError("server-unavailable", source.serverId, `MCP server '${source.serverId}' does not allow the tool${forbidden.length === 1 ? "" : "s"} ${forbidden.join(", ")} (its allowed tools are set on the Servers page)`);
    }
    const permitted = allowed ? manifest.tools.filter((tool) => allowed.has(tool.name)) : manifest.tools;
    const tools = wanted ? permitted.filter((tool) => wanted.has(tool.name)) : permitted;
    const epoch = this.#epoch;
    return tools.map((tool) => ({
      name: tool.name,
      server: source.serverId,
      description: tool.description,
      inputSchema: tool.inputSchema,
      // Its annotations: a call caught mid-flight by a killed worker runs again only when the server marks it read-only or idempotent;
      // approval rules read read-only, destructive and open-world.
      retrySafe: tool.hints.readOnly === true || tool.hints.idempotent === true,
      // Unset hints take the protocol's defaults: a tool not marked read-only may be destructive, and any tool may reach the open world.
      hints: protocolHints(tool.hints),
      // The registry's default approval policy for this tool (set on /servers), if any.
      ...withServerApproval(link.entry.approval, tool.name),
      call: (args, meta) =>
        managedCall(
          {
            serverId: source.serverId,
            tool,
            timeoutMs: link.entry.toolTimeoutMs ?? this.options.defaultToolTimeoutMs ?? 30_000,
            slots: this.#slotsOf(link),
            breaker: this.#breakerOf(source.serverId, tool.name),
            link: () => this.#linkFor(source.serverId, epoch),
          },
          args,
          meta,
        ),
    }));
  }

  /** Drops the server's session and cached manifest: the next resolve or call connects afresh (and re-reads the registry). */
  async reconnect(serverId: string): Promise<void> {
    const link = this.#links.get(serverId);
    this.#links.delete(serverId);
    this.#manifests.delete(serverId);
    await (await link?.catch(() => null))?.close();
  }

  /** Closes every session (and any connect in progress). Call it when the run ends, however it ended. */
  async closeAll(): Promise<void> {
    this.#epoch += 1;
    const links = [...this.#links.values()];
    this.#links.clear();
    this.#manifests.clear();
    await Promise.allSettled(links.map(async (link) => (await link).close()));
  }

  /** What could not be offered, per server and per tool, from the latest attempt at each server. */
  problems(): ServerProblem[] {
    return [...this.#problems.values()].flat();
  }

  /** A tool's circuit as of now ("closed" when breakers are off or it was never called). */
  circuitState(serverId: string, tool: string): CircuitState {
    return this.#breakers.get(`${serverId}\u0000${tool}`)?.state ?? "closed";
  }

  /** The server's link, read from the registry on first use; the registry's verdict as an McpResolveError. */
  #link(serverId: string): Promise<ServerLink> {
    let link = this.#links.get(serverId);
    if (!link) {
      link = this.#createLink(serverId);
      this.#links.set(serverId, link);
      link.catch(() => {
        if (this.#links.get(serverId) === link) this.#links.delete(serverId);
      });
    }
    return link;
  }

  #linkFor(serverId: string, epoch: number): Promise<ServerLink> {
    if (epoch !== this.#epoch) return Promise.reject(new Error(`the connection to MCP server '${serverId}' was closed at the end of the run`));
    return this.#link(serverId);
  }

  async #createLink(serverId: string): Promise<ServerLink> {
    let resolved;
    try {
      resolved = await this.registry.resolve(serverId);
    } catch (error) {
      throw this.#fail(new McpResolveError("server-unavailable", serverId, `MCP server '${serverId}' cannot be used: ${(error as Error).message}`, { cause: error }));
    }
    if (!resolved) throw new McpResolveError("unknown-server", serverId, `MCP server '${serverId}' is not in the registry`);
    if (!resolved.entry.enabled) throw this.#fail(new McpResolveError("server-unavailable", serverId, `MCP server '${serverId}' is switched off in the registry`));
    // Registered before any session exists, so nothing written later can carry them.
    for (const value of Object.values(resolved.secretValues)) this.#secret(value);
    return new ServerLink(resolved, {
      connect: this.options.connect ?? ((entry, request) => connectEntry(entry, { ...request, oauthStore: this.options.oauthStore, answersQuestions: this.options.answersQuestions })),
      sleep: this.options.sleep ?? realSleep,
      retryBaseDelayMs: this.options.retryBaseDelayMs ?? 250,
      onSecret: (value) => this.#secret(value),
      onConnected: this.options.onConnected,
    });
  }

  #manifest(link: ServerLink, signal?: AbortSignal): Promise<ToolManifest> {
    const serverId = link.entry.id;
    const cached = this.#manifests.get(serverId);
    if (cached) return Promise.resolve(cached);
    let listing = this.#listing.get(serverId);
    if (!listing) {
      listing = this.#list(link, signal).finally(() => this.#listing.delete(serverId));
      this.#listing.set(serverId, listing);
    }
    return listing;
  }

  async #list(link: ServerLink, signal?: AbortSignal): Promise<ToolManifest> {
    const serverId = link.entry.id;
    let manifest: ToolManifest;
    try {
      const client = await link.client(signal);
      if (!this.#watched.has(client)) {
        this.#watched.add(client);
        // The server says its tools changed (notifications/tools/list_changed): the next resolve lists them again.
        client.onToolsChanged(() => {
          this.#manifests.delete(serverId);
          this.options.onToolsChanged?.(link.entry);
        });
      }
      manifest = await readToolManifest(client, { timeoutMs: link.entry.timeoutMs, signal });
    } catch (error) {
      const message = (error as Error).message;
      throw this.#fail(new McpResolveError("server-unavailable", serverId, message.includes(`'${serverId}'`) ? message : `MCP server '${serverId}' did not list its tools: ${message}`, { cause: error }));
    }
    this.#report(serverId, manifest.problems.map((problem) => ({ serverId, tool: problem.tool, message: problem.message })));
    this.#manifests.set(serverId, manifest);
    this.options.onToolsListed?.(link.entry, manifest.tools.map((tool) => tool.name));
    return manifest;
  }

  #slotsOf(link: ServerLink): Semaphore {
    const serverId = link.entry.id;
    let slots = this.#slots.get(serverId);
    if (!slots) {
      slots = new Semaphore(link.entry.maxConcurrentCalls ?? this.options.defaultMaxConcurrentCalls ?? 0);
      this.#slots.set(serverId, slots);
    }
    return slots;
  }

  #breakerOf(serverId: string, tool: string): CircuitBreaker | null {
    if (!this.#breakerOptions) return null;
    const key = `${serverId}\u0000${tool}`;
    let breaker = this.#breakers.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(this.#breakerOptions, this.#now);
      this.#breakers.set(key, breaker);
    }
    return breaker;
  }

  #fail(error: McpResolveError): McpResolveError {
    this.#report(error.serverId, [{ serverId: error.serverId, tool: null, message: error.message }]);
    return error;
  }

  #report(serverId: string, problems: ServerProblem[]): void {
    this.#problems.set(serverId, problems);
    for (const problem of problems) this.options.onProblem?.(problem);
  }

  #listen(listener: (value: string) => void): void {
    if (this.#secretListeners.has(listener)) return;
    this.#secretListeners.add(listener);
    for (const value of this.#secrets) listener(value);
  }

  #secret(value: string): void {
    if (this.#secrets.has(value)) return;
    this.#secrets.add(value);
    for (const listener of this.#secretListeners) listener(value);
  }
}

function withServerApproval(defaults: Parameters<typeof serverDefaultFor>[0], tool: string): Pick<AgentTool, "serverApproval"> {
  const serverApproval = serverDefaultFor(defaults, tool);
  return serverApproval ? { serverApproval } : {};
}
