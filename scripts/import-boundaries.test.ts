import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The boundary check (`npm run lint:imports`, .dependency-cruiser.cjs) run
 * with the project's own rules on a small tree that breaks them on purpose:
 * each break fails with the rule it broke, and the allowed arrows pass.
 */
const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as { forbidden: IForbiddenRuleType[]; rooms: Record<string, { may: string[]; entries?: string[] }> };

let tree: string;
let found: { rule: string; from: string; to: string }[];

const files: Record<string, string> = {
  // Allowed: lib/db implements a port lib/engine declares; components enter lib/store through its index.
  "lib/engine/journal.ts": "export interface Journal { record(key: string): void }\n",
  "lib/engine/index.ts": 'export type { Journal } from "./journal";\n',
  "lib/db/journal-store.ts": 'import type { Journal } from "../engine";\nexport const store: Journal = { record() {} };\n',
  "lib/store/index.ts": 'export { selection } from "./selection";\n',
  "lib/store/selection.ts": "export const selection = 1;\n",
  "components/panel.ts": 'import { selection } from "../lib/store";\nexport const panel = selection;\n',
  // A back-arrow: the database imports a component.
  "lib/db/back-arrow.ts": 'import { panel } from "../../components/panel";\nexport const wrong = panel;\n',
  // A room entered past its entry.
  "components/inside.ts": 'import { selection } from "../lib/store/selection";\nexport const inside = selection;\n',
  // A circle inside one room.
  "lib/graph/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
  "lib/graph/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
  // Production importing test support: from a lib room, a route and a command line.
  "lib/trace/uses-support.ts": 'import { double } from "../../testing/trace/double.fixture";\nexport const used = double;\n',
  "app/runs/route.ts": 'import { double } from "../../testing/trace/double.fixture";\nexport const GET = () => double;\n',
  "scripts/worker.ts": 'import { double } from "../testing/trace/double.fixture";\nexport const worker = double;\n',
  "testing/trace/double.fixture.ts": 'import { EventEmitter } from "node:events";\nexport const double = new EventEmitter() ? 2 : 0;\n',
  // A test may import test support.
  "lib/trace/run-events.test.ts": 'import { double } from "../../testing/trace/double.fixture";\nexport const tested = double;\n',
  // A test helper left in production: it imports the test runner.
  "lib/trace/expect-spans.ts": 'import { expect } from "vitest";\nexport const expectSpans = expect;\n',
  "node_modules/vitest/package.json": '{ "name": "vitest", "main": "index.js" }\n',
  "node_modules/vitest/index.js": "exports.expect = () => {};\n",
  // A fixture in a production room, and a file under testing/ named outside the rule.
  "lib/graph/nodes.fixture.ts": 'import { a } from "./a";\nexport const nodes = a;\n',
  "testing/trace/helpers.ts": 'import { double } from "./double.fixture";\nexport const helper = double;\n',
};

beforeAll(async () => {
  tree = await mkdtemp(path.join(os.tmpdir(), "import-boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
    await writeFile(path.join(tree, file), text);
  }
  found = await violations();
}, 120_000); // dependency-cruiser reads the tree with TypeScript: slow on a loaded machine

afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

async function violations(): Promise<{ rule: string; from: string; to: string }[]> {
  const result = await cruise(["lib", "components", "app", "scripts", "testing"], { baseDir: tree, validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true, outputType: "json" });
  const output = typeof result.output === "string" ? JSON.parse(result.output) : result.output;
  return output.summary.violations.map((violation: { rule: { name: string }; from: string; to: string }) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
}

describe("the import boundary check", () => {
  it("fails a back-arrow, a room entered past its entry, a circle and production importing test support, naming each rule", () => {
    expect(found).toContainEqual({ rule: "arrow-from-lib-db", from: "lib/db/back-arrow.ts", to: "components/panel.ts" });
    expect(found).toContainEqual({ rule: "entry-of-lib-store", from: "components/inside.ts", to: "lib/store/selection.ts" });
    expect(found.filter((violation) => violation.rule === "no-circular").map((violation) => `${violation.from} → ${violation.to}`)).toEqual([expect.stringMatching(/^lib\/graph\/[ab]\.ts → lib\/graph\/[ab]\.ts$/)]);
    expect(found).toContainEqual({ rule: "no-test-support-in-production", from: "lib/trace/uses-support.ts", to: "testing/trace/double.fixture.ts" });
  });

  it("keeps test support under testing/ and out of production: app/, lib/ and scripts/ importing it fail, tests may", () => {
    const rulesBroken = (file: string) => found.filter((violation) => violation.from === file).map((violation) => `${violation.rule} → ${violation.to}`);
    expect(rulesBroken("app/runs/route.ts")).toEqual(["no-test-support-in-production → testing/trace/double.fixture.ts"]);
    expect(rulesBroken("scripts/worker.ts")).toEqual(["no-test-support-in-production → testing/trace/double.fixture.ts"]);
    expect(rulesBroken("lib/trace/run-events.test.ts")).toEqual([]);
    expect(rulesBroken("testing/trace/double.fixture.ts")).toEqual([]);
    expect(rulesBroken("lib/trace/expect-spans.ts")).toEqual(["no-test-runner-in-production → node_modules/vitest/index.js"]);
    expect(rulesBroken("lib/graph/nodes.fixture.ts")).toContain("test-support-outside-testing → lib/graph/a.ts");
    expect(rulesBroken("testing/trace/helpers.ts")).toEqual(["testing-naming → testing/trace/double.fixture.ts"]);
  });

  it("passes the arrows the rooms allow", () => {
    const from = (file: string) => found.filter((violation) => violation.from === file);
    expect(from("lib/db/journal-store.ts")).toEqual([]);
    expect(from("components/panel.ts")).toEqual([]);
  });

  it("lets no room import a room above it: the allowed arrows make no circle", () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (room: string, trail: string[]): void => {
      if (done.has(room)) return;
      expect(visiting.has(room), `rooms in a circle: ${[...trail, room].join(" → ")}`).toBe(false);
      visiting.add(room);
      for (const next of config.rooms[room]?.may ?? []) visit(next, [...trail, room]);
      visiting.delete(room);
      done.add(room);
    };
    for (const room of Object.keys(config.rooms)) visit(room, []);
    for (const [room, { may }] of Object.entries(config.rooms)) for (const next of may) expect(config.rooms[next], `${room} may import ${next}, which is no room`).toBeDefined();
  });
});
