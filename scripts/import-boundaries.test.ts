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
  "lib/db/journal-store.ts": 'import type { Journal } from "../engine/journal";\nexport const store: Journal = { record() {} };\n',
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
  // Production importing test support.
  "lib/trace/uses-support.ts": 'import { double } from "../../testing/trace/double";\nexport const used = double;\n',
  "testing/trace/double.ts": "export const double = 2;\n",
};

beforeAll(async () => {
  tree = await mkdtemp(path.join(os.tmpdir(), "import-boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
    await writeFile(path.join(tree, file), text);
  }
  found = await violations();
});

afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

async function violations(): Promise<{ rule: string; from: string; to: string }[]> {
  const result = await cruise(["lib", "components", "testing"], { baseDir: tree, validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true, outputType: "json" });
  const output = typeof result.output === "string" ? JSON.parse(result.output) : result.output;
  return output.summary.violations.map((violation: { rule: { name: string }; from: string; to: string }) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
}

describe("the import boundary check", () => {
  it("fails a back-arrow, a room entered past its entry, a circle and production importing test support, naming each rule", () => {
    expect(found).toContainEqual({ rule: "arrow-from-lib-db", from: "lib/db/back-arrow.ts", to: "components/panel.ts" });
    expect(found).toContainEqual({ rule: "entry-of-lib-store", from: "components/inside.ts", to: "lib/store/selection.ts" });
    expect(found.filter((violation) => violation.rule === "no-circular").map((violation) => `${violation.from} → ${violation.to}`)).toEqual([expect.stringMatching(/^lib\/graph\/[ab]\.ts → lib\/graph\/[ab]\.ts$/)]);
    expect(found).toContainEqual({ rule: "no-test-support-in-production", from: "lib/trace/uses-support.ts", to: "testing/trace/double.ts" });
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
