import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { CallMeta } from "../../tools/agent-tool";
import { McpResolveError } from "../../tools/mcp-tool-resolver";
import { EntryConnectionError } from "../connection-failure";
import { InMemoryServerRegistry, type ServerEntryInput } from "../registry";
import { ConnectionManager, type ConnectionManagerOptions } from "./connection-manager";
import { inProcessConnector } from "./in-process-connector";

const agent = { nodeId: "researcher", nodeType: "openai-agent" };
const meta = (callId = "call-1"): CallMeta => ({ callId, nodeRunId: "node-run-1", callerNodeId: "researcher" });
const policy = () => ({ stdioDisabled: false, allowedPrivateOrigins: [] });

/** A stdio entry: the in-process connector ignores the transport, the registry still checks it. */
function entry(id: string, extra: Partial<ServerEntryInput> = {}): ServerEntryInput {
  return { id, name: id, transport: "stdio", command: "node", args: [`${id}.js`], ...extra } as ServerEntryInput;
}

async function registryWith(...entries: ServerEntryInput[]): Promise<InMemoryServerRegistry> {
  const registry = new InMemoryServerRegistry({ policy });
  for (const item of entries) await registry.save(item);
  return registry;
}

function fakeClock() {
  let now = 5_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The web-search stand-in: `search` echoes its query. */
function searchServer(): McpServer {
  const server = new McpServer({ name: "search", version: "1.0.0" });
  server.registerTool("search", { description: "Search the web.", inputSchema: { query: z.string() } }, async ({ query }) => ({ content: [{ type: "text", text: `results for ${query}` }] }));
  server.registerTool("fetch_page", { description: "Fetch a page.", inputSchema: { url: z.string() } }, async ({ url }) => ({ content: [{ type: "text", text: url }] }));
  return server;
}

function managerFor(registry: InMemoryServerRegistry, servers: Parameters<typeof inProcessConnector>[0], options: ConnectionManagerOptions = {}) {
  const { connect, stats } = inProcessConnector(servers);
  const manager = new ConnectionManager(registry, { connect, sleep: async () => undefined, ...options });
  return { manager, stats };
}

async function toolOf(manager: ConnectionManager, serverId: string, name: string) {
  const [tool] = await manager.resolve({ serverId, toolNames: [name] }, agent);
  return tool;
}

describe("ConnectionManager: resolving a server's tools", () => {
  it("connects on first use and offers the tools asked for; the tools call through the session", async () => {
    const { manager, stats } = managerFor(await registryWith(entry("search")), { search: searchServer });
    try {
      expect(stats.connects.get("search")).toBeUndefined();
      const all = await manager.resolve({ serverId: "search" }, agent);
      expect(all.map((tool) => [tool.server, tool.name])).toEqual([["search", "search"], ["search", "fetch_page"]]);
      const [search] = await manager.resolve({ serverId: "search", toolNames: ["search"] }, agent);
      expect(await search.call({ query: "otters" }, meta())).toEqual({ output: "results for otters", isError: false, structured: undefined });
      expect(stats.connects.get("search")).toBe(1);
    } finally {
      await manager.closeAll();
    }
  });

  it("carries each tool's annotations: read-only or idempotent tools are safe to run again after a crash; the hints reach the approval rules", async () => {
    const annotated = () => {
      const server = new McpServer({ name: "mail", version: "1.0.0" });
      const reply = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
      server.registerTool("read_inbox", { description: "Reads the inbox.", annotations: { readOnlyHint: true, openWorldHint: true } }, reply);
      server.registerTool("label", { description: "Sets a label.", annotations: { readOnlyHint: false, idempotentHint: true } }, reply);
      server.registerTool("delete_mail", { description: "Deletes a mail.", annotations: { destructiveHint: true } }, reply);
      server.registerTool("send", { description: "Sends a mail." }, reply);
      server.registerTool("lookup", { description: "Looks up an address.", annotations: { destructiveHint: false, openWorldHint: false } }, reply);
      return server;
    };
    const { manager } = managerFor(await registryWith(entry("mail")), { mail: annotated });
    try {
      const tools = await manager.resolve({ serverId: "mail" }, agent);
      expect(tools.map((tool) => [tool.name, tool.retrySafe, tool.hints])).toEqual([
        ["read_inbox", true, { readOnly: true, destructive: false, openWorld: true }],
        // Unset hints take the protocol's defaults: not read-only may be destructive; open-world unless marked closed.
        ["label", true, { readOnly: false, destructive: true, openWorld: true }],
        ["delete_mail", false, { readOnly: undefined, destructive: true, openWorld: true }],
        ["send", false, { readOnly: undefined, destructive: true, openWorld: true }],
        ["lookup", false, { readOnly: undefined, destructive: false, openWorld: false }],
      ]);
    } finally {
      await manager.closeAll();
    }
  });

  it("refuses unknown and switched-off servers (which workflow may use a server is the engine's grant check)", async () => {
    const registry = await registryWith(entry("admin"), entry("off", { enabled: false }));
    const { manager, stats } = managerFor(registry, { admin: searchServer, off: searchServer });
    try {
      expect(await manager.resolve({ serverId: "admin" }, agent)).toHaveLength(2);
      expect(stats.connects.get("off")).toBeUndefined();
      const refusal = manager.resolve({ serverId: "nope" }, agent);
      await expect(refusal).rejects.toBeInstanceOf(McpResolveError);
      await expect(refusal).rejects.toMatchObject({ code: "unknown-server" });
      await expect(manager.resolve({ serverId: "off" }, agent)).rejects.toMatchObject({ code: "server-unavailable", message: "MCP server 'off' is switched off in the registry" });
    } finally {
      await manager.closeAll();
    }
  });

  it("offers only the registry's allowed tools, and refuses a workflow asking for another", async () => {
    const registry = await registryWith(entry("narrow", { allowedTools: ["search"] }));
    const { manager } = managerFor(registry, { narrow: searchServer });
    try {
      expect((await manager.resolve({ serverId: "narrow" }, agent)).map((tool) => tool.name)).toEqual(["search"]);
      await expect(manager.resolve({ serverId: "narrow", toolNames: ["fetch_page"] }, agent)).rejects.toMatchObject({
        code: "server-unavailable",
        message: "MCP server 'narrow' does not allow the tool fetch_page (its allowed tools are set on the Servers page)",
      });
    } finally {
      await manager.closeAll();
    }
  });

  it("hands every secret of the entry to onSecret before any session exists", async () => {
    const registry = new InMemoryServerRegistry({ policy });
    await registry.save(entry("keyed", { secrets: ["TOKEN"], env: { API_TOKEN: "{{ secrets.TOKEN }}" } }), { secretValues: { TOKEN: "tok-very-secret" } });
    const seen: string[] = [];
    const { manager, stats } = managerFor(registry, { keyed: searchServer });
    try {
      await manager.resolve({ serverId: "keyed" }, agent, { onSecret: (value) => seen.push(value) });
      expect(seen).toEqual(["tok-very-secret"]);
      expect(stats.connects.get("keyed")).toBe(1);
      // A second listener (another agent's resolve) gets the secrets already known.
      const later: string[] = [];
      await manager.resolve({ serverId: "keyed" }, agent, { onSecret: (value) => later.push(value) });
      expect(later).toEqual(["tok-very-secret"]);
    } finally {
      await manager.closeAll();
    }
  });
});

describe("ConnectionManager: connecting with retries", () => {
  it("retries a failed connection with exponential backoff, up to the entry's maxRetries", async () => {
    const delays: number[] = [];
    let failuresLeft = 2;
    const { connect } = inProcessConnector({ flaky: searchServer });
    const manager = new ConnectionManager(await registryWith(entry("flaky", { maxRetries: 2 })), {
      retryBaseDelayMs: 100,
      sleep: async (ms) => void delays.push(ms),
      connect: async (item, request) => {
        if (failuresLeft-- > 0) throw new EntryConnectionError("connection-failed", "nothing is listening at flaky (connection refused)");
        return connect(item, request);
      },
    });
    try {
      expect(await manager.resolve({ serverId: "flaky" }, agent)).toHaveLength(2);
      expect(delays).toEqual([100, 200]);
    } finally {
      await manager.closeAll();
    }
  });

  it("gives up after maxRetries with the last reason, and tries again on the next resolve", async () => {
    let attempts = 0;
    const manager = new ConnectionManager(await registryWith(entry("down", { maxRetries: 1 })), {
      sleep: async () => undefined,
      connect: async () => {
        attempts += 1;
        throw new EntryConnectionError("connection-failed", `could not start 'node' (attempt ${attempts})`);
      },
    });
    await expect(manager.resolve({ serverId: "down" }, agent)).rejects.toMatchObject({
      code: "server-unavailable",
      message: "MCP server 'down' cannot be reached (2 attempts): could not start 'node' (attempt 2)",
    });
    expect(manager.problems()).toEqual([{ serverId: "down", tool: null, message: expect.stringContaining("cannot be reached (2 attempts)") }]);
    await expect(manager.resolve({ serverId: "down" }, agent)).rejects.toMatchObject({ code: "server-unavailable" });
    expect(attempts).toBe(4);
  });

  it("does not retry a refusal by this machine's rules", async () => {
    let attempts = 0;
    const manager = new ConnectionManager(await registryWith(entry("refused", { maxRetries: 3 })), {
      sleep: async () => undefined,
      connect: async () => {
        attempts += 1;
        throw new EntryConnectionError("connection-refused-by-policy", "stdio servers are switched off on this machine");
      },
    });
    await expect(manager.resolve({ serverId: "refused" }, agent)).rejects.toMatchObject({ code: "server-unavailable" });
    expect(attempts).toBe(1);
  });
});

describe("ConnectionManager: the tool manifest", () => {
  it("reuses a server's manifest within the TTL and lists again after it (fake clock)", async () => {
    const clock = fakeClock();
    const { manager, stats } = managerFor(await registryWith(entry("search")), { search: searchServer }, { now: clock.now, cacheTtlMs: 60_000 });
    try {
      await manager.resolve({ serverId: "search" }, agent);
      await manager.resolve({ serverId: "search", toolNames: ["search"] }, { nodeId: "writer", nodeType: "openai-agent" });
      expect(stats.lists.get("search")).toBe(1);
      clock.advance(59_999);
      await manager.resolve({ serverId: "search" }, agent);
      expect(stats.lists.get("search")).toBe(1);
      clock.advance(1);
      await manager.resolve({ serverId: "search" }, agent);
      expect(stats.lists.get("search")).toBe(2);
      expect(stats.connects.get("search")).toBe(1);
    } finally {
      await manager.closeAll();
    }
  });

  it("tells whom it may concern each list of tool names it reads, and each tools/list_changed a server sends", async () => {
    let server: McpServer | undefined;
    const listed: [string, string[]][] = [];
    const changed: string[] = [];
    const { manager } = managerFor(
      await registryWith(entry("search")),
      { search: () => (server = searchServer()) },
      { onToolsListed: (listedEntry, names) => listed.push([listedEntry.id, names]), onToolsChanged: (changedEntry) => changed.push(changedEntry.id) },
    );
    try {
      await manager.resolve({ serverId: "search" }, agent);
      expect(listed).toEqual([["search", ["search", "fetch_page"]]]);
      // A tool added while connected: the SDK's server sends notifications/tools/list_changed.
      server!.registerTool("summarize", { description: "Summarize.", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
      await vi.waitFor(() => expect(changed).toEqual(["search"]));
      await manager.resolve({ serverId: "search" }, agent);
      expect(listed.at(-1)).toEqual(["search", ["search", "fetch_page", "summarize"]]);
    } finally {
      await manager.closeAll();
    }
  });

  it("asks tools/list on every resolve when the TTL is 0", async () => {
    const { manager, stats } = managerFor(await registryWith(entry("search")), { search: searchServer }, { cacheTtlMs: 0 });
    try {
      for (let index = 0; index < 3; index++) await manager.resolve({ serverId: "search" }, agent);
      expect(stats.lists.get("search")).toBe(3);
    } finally {
      await manager.closeAll();
    }
  });

  it("keeps the good tools of a list with a malformed one, and names the bad one", async () => {
    const problems: unknown[] = [];
    const { manager } = managerFor(await registryWith(entry("mixed")), { mixed: mixedServer }, { onProblem: (problem) => problems.push(problem) });
    try {
      const tools = await manager.resolve({ serverId: "mixed" }, agent);
      expect(tools.map((tool) => tool.name)).toEqual(["good", "also_good"]);
      expect(await tools[1].call({}, meta())).toMatchObject({ output: "also_good ran", isError: false });
      const expected = [
        { serverId: "mixed", tool: "broken", message: expect.stringMatching(/^the tool 'broken' is listed with an invalid definition \(inputSchema\.type: .+\); it is left out$/) },
        { serverId: "mixed", tool: "good", message: "the tool 'good' is listed twice; only the first is offered" },
      ];
      expect(manager.problems()).toEqual(expected);
      expect(problems).toEqual(expected);
      // Asking for the bad tool by name says why it is missing.
      await expect(manager.resolve({ serverId: "mixed", toolNames: ["good", "broken"] }, agent)).rejects.toMatchObject({
        code: "server-unavailable",
        message: expect.stringContaining("the tool 'broken' is listed with an invalid definition"),
      });
    } finally {
      await manager.closeAll();
    }
  });
});

/** A low-level server whose list holds a tool with a string input schema and a duplicate name. */
function mixedServer(): Server {
  const server = new Server({ name: "mixed", version: "1.0.0" }, { capabilities: { tools: {} } });
  const object = { type: "object", properties: {} };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "good", description: "Fine.", inputSchema: object },
      { name: "broken", description: "Its schema is not an object.", inputSchema: { type: "string" } },
      { name: "also_good", description: "Fine too.", inputSchema: object },
      { name: "good", description: "A second 'good'.", inputSchema: object },
    ] as never,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: "text", text: `${request.params.name} ran` }] }));
  return server;
}

describe("ConnectionManager: sessions", () => {
  it("reconnect(serverId) drops the session and the cached manifest: the next use connects afresh", async () => {
    const { manager, stats } = managerFor(await registryWith(entry("search")), { search: searchServer });
    try {
      const search = await toolOf(manager, "search", "search");
      await manager.reconnect("search");
      expect(stats.closes.get("search")).toBe(1);
      // A tool resolved before the reconnect goes through the new session.
      expect(await search.call({ query: "after" }, meta())).toMatchObject({ output: "results for after", isError: false });
      expect(stats.connects.get("search")).toBe(2);
      await manager.resolve({ serverId: "search" }, agent);
      expect(stats.lists.get("search")).toBe(2);
    } finally {
      await manager.closeAll();
    }
  });

  it("a session lost under it (the server went away): the next call reconnects once and succeeds", async () => {
    const connected: string[] = [];
    const { manager, stats } = managerFor(await registryWith(entry("search")), { search: searchServer }, { onConnected: (id) => connected.push(id) });
    try {
      const search = await toolOf(manager, "search", "search");
      expect(await search.call({ query: "one" }, meta("c1"))).toMatchObject({ isError: false });
      await stats.kill("search");
      expect(await search.call({ query: "two" }, meta("c2"))).toEqual({ output: "results for two", isError: false, structured: undefined });
      expect(connected).toEqual(["search", "search"]);
    } finally {
      await manager.closeAll();
    }
  });

  it("closeAll closes every session; the manager can still be used afterwards", async () => {
    const { manager, stats } = managerFor(await registryWith(entry("a"), entry("b")), { a: searchServer, b: searchServer });
    await manager.resolve({ serverId: "a" }, agent);
    await manager.resolve({ serverId: "b" }, agent);
    await manager.closeAll();
    expect([stats.closes.get("a"), stats.closes.get("b")]).toEqual([1, 1]);
    await manager.resolve({ serverId: "a" }, agent);
    expect(stats.connects.get("a")).toBe(2);
    await manager.closeAll();
  });
});

describe("ConnectionManager: per-tool timeouts", () => {
  /** `hang` never answers (it records that the client cancelled it); `quick` answers. */
  function hangingServer(cancelled: string[]) {
    return () => {
      const server = new McpServer({ name: "hangs", version: "1.0.0" });
      server.registerTool("hang", { description: "Never answers.", inputSchema: {} }, (_args, extra) => {
        extra.signal.addEventListener("abort", () => cancelled.push(extra.requestId.toString()));
        return new Promise<never>(() => undefined);
      });
      server.registerTool("quick", { description: "Answers.", inputSchema: {} }, async () => ({ content: [{ type: "text", text: "quick answer" }] }));
      return server;
    };
  }

  it("cuts a hung call at the entry's toolTimeoutMs with an isError result and cancels it on the server", async () => {
    const cancelled: string[] = [];
    const { manager } = managerFor(await registryWith(entry("hangs", { toolTimeoutMs: 50 })), { hangs: hangingServer(cancelled) });
    try {
      const [hang, quick] = await manager.resolve({ serverId: "hangs", toolNames: ["hang", "quick"] }, agent);
      expect(await hang.call({}, meta())).toEqual({ output: "'hang' on MCP server 'hangs' timed out after 50 ms; the call was cancelled", isError: true });
      await expect.poll(() => cancelled.length).toBe(1);
      expect(await quick.call({}, meta())).toMatchObject({ output: "quick answer", isError: false });
    } finally {
      await manager.closeAll();
    }
  });

  it("uses the manager's default when the entry sets none", async () => {
    const { manager } = managerFor(await registryWith(entry("hangs")), { hangs: hangingServer([]) }, { defaultToolTimeoutMs: 20 });
    try {
      const hang = await toolOf(manager, "hangs", "hang");
      expect(await hang.call({}, meta())).toMatchObject({ output: expect.stringContaining("timed out after 20 ms"), isError: true });
    } finally {
      await manager.closeAll();
    }
  });

  it("a cancelled run ends a hung call at once, without a timeout", async () => {
    const { manager } = managerFor(await registryWith(entry("hangs", { toolTimeoutMs: 0 })), { hangs: hangingServer([]) });
    try {
      const hang = await toolOf(manager, "hangs", "hang");
      const controller = new AbortController();
      const pending = hang.call({}, { ...meta(), signal: controller.signal });
      controller.abort();
      expect(await pending).toEqual({ output: "The call was not completed because the run was cancelled.", isError: true });
      expect(manager.circuitState("hangs", "hang")).toBe("closed");
    } finally {
      await manager.closeAll();
    }
  });
});

describe("ConnectionManager: the per-tool circuit breaker", () => {
  function flakyServer(control: { failing: boolean; calls: number; gate?: Promise<void> }) {
    return () => {
      const server = new McpServer({ name: "flaky", version: "1.0.0" });
      server.registerTool("flaky", { description: "Fails while told to.", inputSchema: {} }, async () => {
        control.calls += 1;
        await control.gate;
        return control.failing ? { content: [{ type: "text", text: "upstream is down" }], isError: true } : { content: [{ type: "text", text: "ok" }] };
      });
      server.registerTool("steady", { description: "Always fine.", inputSchema: {} }, async () => ({ content: [{ type: "text", text: "steady" }] }));
      return server;
    };
  }

  it("opens after 5 failures, fails fast while open, half-opens after the cool-down, closes after 2 successes", async () => {
    const clock = fakeClock();
    const control = { failing: true, calls: 0 };
    const { manager } = managerFor(await registryWith(entry("flaky")), { flaky: flakyServer(control) }, { now: clock.now });
    try {
      const [flaky, steady] = await manager.resolve({ serverId: "flaky", toolNames: ["flaky", "steady"] }, agent);
      for (let index = 0; index < 5; index++) expect(await flaky.call({}, meta())).toMatchObject({ output: "upstream is down", isError: true });
      expect(manager.circuitState("flaky", "flaky")).toBe("open");

      // Open: answered at once, the server is not called; the server's other tools are not affected.
      expect(await flaky.call({}, meta())).toEqual({
        output: "Not called: 'flaky' on MCP server 'flaky' failed 5 times in a row, so calls to it are paused (circuit open); it will be tried again in 30 s.",
        isError: true,
      });
      expect(control.calls).toBe(5);
      expect(await steady.call({}, meta())).toMatchObject({ output: "steady", isError: false });

      clock.advance(30_000);
      expect(manager.circuitState("flaky", "flaky")).toBe("half-open");
      control.failing = false;
      expect(await flaky.call({}, meta())).toMatchObject({ output: "ok", isError: false });
      expect(manager.circuitState("flaky", "flaky")).toBe("half-open");
      expect(await flaky.call({}, meta())).toMatchObject({ output: "ok", isError: false });
      expect(manager.circuitState("flaky", "flaky")).toBe("closed");
      expect(control.calls).toBe(7);
    } finally {
      await manager.closeAll();
    }
  });

  it("half-open lets one trial through at a time and re-opens when it fails", async () => {
    const clock = fakeClock();
    let openGate = () => {};
    const control: { failing: boolean; calls: number; gate?: Promise<void> } = { failing: true, calls: 0 };
    const { manager } = managerFor(await registryWith(entry("flaky")), { flaky: flakyServer(control) }, { now: clock.now });
    try {
      const flaky = await toolOf(manager, "flaky", "flaky");
      for (let index = 0; index < 5; index++) await flaky.call({}, meta());
      clock.advance(30_000);
      control.gate = new Promise((resolve) => (openGate = resolve));
      const trial = flaky.call({}, meta("trial"));
      expect(await flaky.call({}, meta("second"))).toMatchObject({ output: expect.stringContaining("one trial call is testing it now (circuit half-open)"), isError: true });
      openGate();
      expect(await trial).toMatchObject({ output: "upstream is down", isError: true });
      expect(manager.circuitState("flaky", "flaky")).toBe("open");
      expect(await flaky.call({}, meta())).toMatchObject({ output: expect.stringContaining("circuit open"), isError: true });
      expect(control.calls).toBe(6);
    } finally {
      await manager.closeAll();
    }
  });

  it("counts a timeout as a failure, and can be switched off (null)", async () => {
    const hangs = () => {
      const server = new McpServer({ name: "hangs", version: "1.0.0" });
      server.registerTool("hang", { description: "Never answers.", inputSchema: {} }, () => new Promise<never>(() => undefined));
      return server;
    };
    const tuned = managerFor(await registryWith(entry("hangs", { toolTimeoutMs: 5 })), { hangs }, { circuitBreaker: { failureThreshold: 2 } });
    const off = managerFor(await registryWith(entry("hangs", { toolTimeoutMs: 5 })), { hangs }, { circuitBreaker: null });
    try {
      const hang = await toolOf(tuned.manager, "hangs", "hang");
      await hang.call({}, meta());
      await hang.call({}, meta());
      expect(tuned.manager.circuitState("hangs", "hang")).toBe("open");
      const unguarded = await toolOf(off.manager, "hangs", "hang");
      for (let index = 0; index < 6; index++) expect(await unguarded.call({}, meta())).toMatchObject({ output: expect.stringContaining("timed out after 5 ms") });
      expect(off.manager.circuitState("hangs", "hang")).toBe("closed");
    } finally {
      await tuned.manager.closeAll();
      await off.manager.closeAll();
    }
  });
});

describe("ConnectionManager: maxConcurrentCalls", () => {
  function countingServer(counter: { inFlight: number; most: number; calls: number }) {
    return () => {
      const server = new McpServer({ name: "counted", version: "1.0.0" });
      server.registerTool("work", { description: "Takes a moment.", inputSchema: { index: z.number() } }, async ({ index }) => {
        counter.calls += 1;
        counter.inFlight += 1;
        counter.most = Math.max(counter.most, counter.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        counter.inFlight -= 1;
        return { content: [{ type: "text", text: `done ${index}` }] };
      });
      return server;
    };
  }

  it("50 parallel calls against a server capped at 3 never have more than 3 in flight", async () => {
    const counter = { inFlight: 0, most: 0, calls: 0 };
    const { manager } = managerFor(await registryWith(entry("counted", { maxConcurrentCalls: 3 })), { counted: countingServer(counter) });
    try {
      const work = await toolOf(manager, "counted", "work");
      const outcomes = await Promise.all(Array.from({ length: 50 }, (_, index) => work.call({ index }, meta(`c${index}`))));
      expect(outcomes.map((outcome) => outcome.output)).toEqual(Array.from({ length: 50 }, (_, index) => `done ${index}`));
      expect(counter.calls).toBe(50);
      expect(counter.most).toBe(3);
    } finally {
      await manager.closeAll();
    }
  });

  it("without a cap the same calls overlap freely (the cap is what held them to 3)", async () => {
    const counter = { inFlight: 0, most: 0, calls: 0 };
    const { manager } = managerFor(await registryWith(entry("counted")), { counted: countingServer(counter) });
    try {
      const work = await toolOf(manager, "counted", "work");
      await Promise.all(Array.from({ length: 50 }, (_, index) => work.call({ index }, meta(`c${index}`))));
      expect(counter.most).toBeGreaterThan(3);
    } finally {
      await manager.closeAll();
    }
  });
});

describe("a server whose tool list changes", () => {
  it("is listed again after it says so (notifications/tools/list_changed), within the cache's time", async () => {
    const registry = await registryWith(entry("search"));
    let live: McpServer | undefined;
    const { manager, stats } = managerFor(registry, { search: () => (live = searchServer()) }, { cacheTtlMs: 60 * 60_000 });
    try {
      expect((await manager.resolve({ serverId: "search" }, agent)).map((tool) => tool.name)).toEqual(["search", "fetch_page"]);
      // Registering a tool on a connected McpServer sends tools/list_changed to the client.
      live!.registerTool("summarize", { description: "Summarize a page.", inputSchema: { url: z.string() } }, async ({ url }) => ({ content: [{ type: "text", text: url }] }));
      await expect.poll(async () => (await manager.resolve({ serverId: "search" }, agent)).map((tool) => tool.name)).toEqual(["search", "fetch_page", "summarize"]);
      expect(stats.lists.get("search")).toBe(2);
    } finally {
      await manager.closeAll();
    }
  });
});
