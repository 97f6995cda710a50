// The house's rooms and the arrows between them, enforced by `npm run lint:imports`
// (run first in `npm test`). docs/ARCHITECTURE.md's table of arrows is generated
// from `rooms` below (`npm run docs:architecture`); change the arrows here.
//
// Production code only: tests, benchmarks, e2e and the test support under
// testing/ are checked for circles and names, not for arrows.

/**
 * Test support: test files, benchmarks, e2e and the testing/ tree. One naming
 * rule: testing/<room>/<what it stands in for>.fixture.<ext> (a fixture of
 * lib/mcp is testing/mcp/oauth-server.fixture.ts), tests of it beside it as
 * *.test.ts or *.conformance.ts. A file outside testing/ is production, whatever its name.
 */
const testSupport = "^(testing|e2e|bench)/|\\.(test|spec|bench|conformance)\\.tsx?$";

/** Production code: the rooms and the files at the root the app loads. */
const production = "^(app|components|lib|scripts)/|^(instrumentation|proxy|next\\.config)\\.ts$";

/**
 * Each room, what it may import (besides itself, node: built-ins and
 * packages) and its public files. A room lists the rooms below it; nothing
 * below imports something above it. `entries` are the only files other
 * rooms may import: the room's index.ts, and beside it a named file for code
 * that must not load the rest of the room (browser code: lib/trace/browser.ts
 * and lib/manifest/browser.ts; the app's server-only side: lib/db/app.ts;
 * a command's start: lib/manifest/nodes-version.ts, read before the lint;
 * code outside Next, which cannot load "server-only" or needs files beside
 * the source: lib/auth's named files, lib/db/postgres/apply-migrations.ts).
 * Every room of lib/ names its entries.
 */
const rooms = {
  app: { about: "routing and wiring: server actions, routes, pages", may: ["components", "lib/api", "lib/auth", "lib/canvas", "lib/db", "lib/embed", "lib/engine", "lib/evals", "lib/graph", "lib/manifest", "lib/mcp", "lib/policy", "lib/questions", "lib/run-model", "lib/runs", "lib/security", "lib/trace", "lib/triggers"] },
  scripts: { about: "the command lines", may: ["lib/api", "lib/auth", "lib/db", "lib/engine", "lib/evals", "lib/graph", "lib/manifest", "lib/mcp", "lib/policy", "lib/run-model", "lib/runs", "lib/sandbox", "lib/security", "lib/tools", "lib/trace"] },
  components: { about: "React: data in, server actions out", may: ["lib/api", "lib/canvas", "lib/evals", "lib/graph", "lib/manifest", "lib/policy", "lib/questions", "lib/run-model", "lib/runs", "lib/store", "lib/trace", "lib/triggers"] },
  "lib/runs": { about: "the one run service and the worker runtime", may: ["lib/canvas", "lib/db", "lib/engine", "lib/evals", "lib/graph", "lib/mcp", "lib/notify", "lib/policy", "lib/queue", "lib/run-model", "lib/trace", "lib/triggers"], entries: ["index.ts", "start-up.ts", "outside-runs.ts"] },
  "lib/auth": { about: "who is asking: roles, sessions, tokens", may: ["lib/db", "lib/mcp", "lib/security"], entries: ["index.ts", "owner-setup.ts", "role-table.ts", "oidc/oidc.ts", "public-action.ts", "endpoint-bearer.ts", "sessions.ts"] },
  "lib/db": { about: "storage (Prisma and SQL); implements the engine's, the queue's and the endpoint's ports", may: ["lib/api", "lib/canvas", "lib/engine", "lib/evals", "lib/graph", "lib/manifest", "lib/mcp", "lib/policy", "lib/questions", "lib/queue", "lib/run-model", "lib/security", "lib/trace", "lib/triggers"], entries: ["index.ts", "app.ts", "postgres/apply-migrations.ts"] },
  "lib/queue": { about: "the run queue's port and the worker", may: [], entries: ["index.ts"] },
  "lib/evals": { about: "runs as tests and scores", may: ["lib/ai", "lib/engine", "lib/graph", "lib/manifest", "lib/run-model", "lib/tools", "lib/trace"], entries: ["index.ts"] },
  "lib/mcp": { about: "MCP servers, clients, the registry and the outside endpoint", may: ["lib/ai", "lib/calls", "lib/engine", "lib/graph", "lib/manifest", "lib/policy", "lib/run-model", "lib/security", "lib/tools", "lib/trace"], entries: ["index.ts"] },
  "lib/store": { about: "the canvas's zustand stores", may: ["lib/canvas", "lib/graph", "lib/trace"], entries: ["index.ts"] },
  "lib/engine": { about: "the runner: planner shell, executors, journal and ports", may: ["lib/ai", "lib/calls", "lib/graph", "lib/manifest", "lib/policy", "lib/run-model", "lib/sandbox", "lib/security", "lib/tools", "lib/trace"], entries: ["index.ts"] },
  "lib/canvas": { about: "pure helpers behind the canvas editor", may: ["lib/graph", "lib/manifest", "lib/tools"], entries: ["index.ts", "config-check.ts"] },
  "lib/tools": { about: "the AgentTool shape, tool layers, search", may: ["lib/ai", "lib/graph", "lib/run-model", "lib/trace"], entries: ["index.ts", "tool-budget.ts"] },
  "lib/notify": { about: "the approval webhook", may: ["lib/manifest", "lib/security", "lib/trace"], entries: ["index.ts"] },
  "lib/trace": { about: "run events, trace rows, redaction, OpenTelemetry", may: ["lib/manifest", "lib/policy", "lib/run-model"], entries: ["index.ts", "browser.ts"] },
  "lib/ai": { about: "model protocols behind one Conversation", may: ["lib/calls", "lib/manifest", "lib/sandbox", "lib/security"], entries: ["index.ts", "dot-path.ts"] },
  "lib/triggers": { about: "webhook and schedule kernels", may: ["lib/graph"], entries: ["index.ts", "schedule.ts", "webhook-secret.ts"] },
  "lib/policy": { about: "approval policies as pure functions", may: ["lib/graph", "lib/manifest"], entries: ["index.ts"] },
  "lib/calls": { about: "a manifest's HTTP calls", may: ["lib/manifest", "lib/sandbox", "lib/security"], entries: ["index.ts"] },
  "lib/graph": { about: "the workflow document, pure", may: ["lib/manifest"], entries: ["index.ts", "workflow.ts", "validation-context.ts"] },
  "lib/manifest": { about: "nodes/ as a typed catalogue, lint rules", may: ["lib/sandbox"], entries: ["index.ts", "browser.ts", "nodes-version.ts"] },
  "lib/api": { about: "the HTTP API's schemas and OpenAPI document", may: ["lib/run-model"], entries: ["run-api.ts", "chat-api.ts", "chat-limits.ts", "openapi.ts", "openapi-types.ts", "api-types-source.ts"] },
  "lib/sandbox": { about: "QuickJS snippets and templates", may: [], entries: ["index.ts", "template-syntax.ts"] },
  "lib/security": { about: "address policy, URL guard, secrets", may: [], entries: ["index.ts", "security-headers.ts", "host-allowlist.ts"] },
  "lib/questions": { about: "the fields of a tool's question", may: [], entries: ["question-fields.ts"] },
  "lib/embed": { about: "chat widgets: who a widget's request is, its origins and its frame's headers", may: ["lib/auth", "lib/db"], entries: ["widget-origins.ts", "widget-caller.ts", "widget-frame.ts", "widget-settings.ts"] },
  "lib/run-model": { about: "the bottom floor: run statuses, origins, journal keys, forks, questions", may: [], entries: ["index.ts", "fork-change.ts", "tool-question.ts", "run-origin.ts", "run-status.ts"] },
};

/**
 * Known exceptions, to be removed, never added to: arrows that still run
 * back up, each `{ from: file, to: [files] }`. None today.
 */
const knownBackArrows = [];

for (const [room, { entries }] of Object.entries(rooms)) {
  if (room.startsWith("lib/") && !entries?.length) throw new Error(`.dependency-cruiser.cjs: the room ${room} names no entries (its index.ts, or a named public file)`);
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
const roomPattern = (room) => `^${escape(room)}/`;
const allRooms = `^(${Object.keys(rooms).map(escape).join("|")})/`;

/** One rule per room: it imports only itself and the rooms it may. */
const arrowRules = Object.entries(rooms).map(([room, { may }]) => ({
  name: `arrow-from-${room.replace("/", "-")}`,
  comment: `${room} may import only ${may.length ? may.join(", ") : "no other room"} (.dependency-cruiser.cjs: rooms)`,
  severity: "error",
  from: { path: roomPattern(room), pathNot: testSupport },
  to: { path: allRooms, pathNot: `^(${[room, ...may].map(escape).join("|")})/` },
}));

/** One rule per room with entries: other rooms come in only through them. */
const entryRules = Object.entries(rooms)
  .filter(([, { entries }]) => entries)
  .map(([room, { entries }]) => ({
    name: `entry-of-${room.replace("/", "-")}`,
    comment: `${room} is entered only through ${entries.join(", ")}`,
    severity: "error",
    from: { pathNot: `${roomPattern(room)}|${testSupport}` },
    to: { path: roomPattern(room), pathNot: `^${escape(room)}/(${entries.map(escape).join("|")})$` },
  }));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Files that import each other in a loop.",
      severity: "error",
      from: { pathNot: testSupport },
      to: { circular: true },
    },
    {
      name: "no-test-support-in-production",
      comment: "Production code (app/, components/, lib/, scripts/) never imports test support: testing/, e2e/, bench/ or a test.",
      severity: "error",
      from: { path: production, pathNot: testSupport },
      to: { path: testSupport },
    },
    {
      name: "no-test-runner-in-production",
      comment: "Production code never imports vitest or Playwright: a helper that does is test support and lives in testing/.",
      severity: "error",
      from: { path: production, pathNot: testSupport },
      to: { path: "^node_modules/(vitest|@vitest/[^/]+|@playwright/test|playwright)/" },
    },
    {
      name: "test-support-outside-testing",
      comment: "A fixture (*.fixture.*, a fixtures/ folder) lives under testing/<room>/, never in a production room.",
      severity: "error",
      from: { path: "^(app|components|lib|scripts)/.*(\\.fixture\\.|/fixtures/)" },
      to: {},
    },
    {
      name: "testing-naming",
      comment: "Every file under testing/ is testing/<room>/<what it stands in for>.fixture.<ext>, or a test (*.test.ts, *.conformance.ts) of it.",
      severity: "error",
      from: { path: "^testing/", pathNot: "^testing/[a-z0-9-]+/[a-z0-9-]+(\\.fixture\\.[a-z]+|\\.(test|conformance)\\.ts)$" },
      to: {},
    },
    {
      name: "room-unknown",
      comment: "Every folder of lib/ is a room listed in .dependency-cruiser.cjs (rooms), with the rooms it may import.",
      severity: "error",
      from: { path: "^lib/", pathNot: `${allRooms}|^lib/generated/|${testSupport}` },
      to: {},
    },
    ...arrowRules,
    ...entryRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|lib/generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
    cache: false,
  },
};

// A known back-arrow is allowed from its own file to its own targets, and nothing else is.
for (const arrow of knownBackArrows) {
  const rule = module.exports.forbidden.find((candidate) => candidate.name.startsWith("arrow-from-") && new RegExp(candidate.from.path).test(arrow.from));
  rule.from.pathNot = `${rule.from.pathNot}|^${escape(arrow.from)}$`;
  module.exports.forbidden.push({ ...rule, name: `${rule.name}-known`, from: { path: `^${escape(arrow.from)}$` }, to: { path: rule.to.path, pathNot: `${rule.to.pathNot}|^(${arrow.to.map(escape).join("|")})$` } });
}

// The room map, for the docs generator and the check's test (not enumerable:
// dependency-cruiser accepts only its own keys).
for (const [key, value] of Object.entries({ rooms, testSupport, production, knownBackArrows })) {
  Object.defineProperty(module.exports, key, { value, enumerable: false });
}
