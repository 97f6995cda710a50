import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueLocation, readStdioCatalogue, stdioCatalogueFromText } from "./read-catalogue";

const file = "/etc/switchboard.stdio.json";
const entry = (fields: Record<string, unknown>) => JSON.stringify({ servers: { files: { title: "Files", command: "node", args: ["server.js"], ...fields } } }, null, 2);

describe("reading the stdio catalogue", () => {
  it("reads the shipped catalogue: each entry with its place and the executable its command resolved to", () => {
    const catalogue = readStdioCatalogue(path.resolve("switchboard.stdio.json"));
    if (!catalogue.ok) throw new Error(catalogue.problem);
    expect(catalogue.entries.map((item) => item.id)).toEqual(["everything", "everything-npx", "filesystem"]);
    const [everything] = catalogue.entries;
    expect(everything.place).toBe(`${path.resolve("switchboard.stdio.json")}:4`);
    expect(everything.executable).toMatch(/^\/.*\/node$/);
    expect(everything.folder).toBe(process.cwd());
  });

  it.each<[string, string, RegExp]>([
    ["not JSON", '{\n  "servers": {\n    "x": \n  }\n}', /^\/etc\/switchboard\.stdio\.json:4: not valid JSON/],
    ["a relative command", entry({ command: "bin/node" }), /:5: servers\.files\.command: the command is an absolute path or a bare name/],
    ["an unknown field", entry({ shell: true }), /:9: servers\.files\.shell: 'shell' is not a field here/],
    ["an undeclared parameter", entry({ args: ["{{ root }}"] }), /:7: servers\.files\.args\.0: \{\{ root \}\} is not a declared parameter/],
    ["two parameters in one argument", entry({ args: ["{{ a }}{{ b }}"], parameters: { a: { type: "integer" }, b: { type: "integer" } } }), /servers\.files\.args\.0: an argument holds at most one parameter/],
    ["a free-text parameter", entry({ args: ["{{ name }}"], parameters: { name: { type: "string" } } }), /servers\.files\.parameters\.name\.pattern: a string parameter needs a pattern or an enum/],
    ["a bad pattern", entry({ args: ["{{ name }}"], parameters: { name: { type: "string", pattern: "(" } } }), /servers\.files\.parameters\.name\.pattern: not a valid regular expression/],
    ["a path parameter with no folder", entry({ args: ["{{ root }}"], parameters: { root: { type: "path", within: [] } } }), /lists the folders it may be within/],
    ["a relative folder", entry({ args: ["{{ root }}"], parameters: { root: { type: "path", within: ["srv"] } } }), /a folder here is an absolute path/],
    ["an unused parameter", entry({ parameters: { root: { type: "path", within: ["/srv"] } } }), /the parameter root is used in no argument/],
    ["NODE_OPTIONS declared", entry({ env: { NODE_OPTIONS: {} } }), /servers\.files\.env\.NODE_OPTIONS: NODE_OPTIONS cannot be set/],
    ["a network other than none or full", entry({ confine: { network: "example.com" } }), /network is none or full/],
  ])("refuses %s with file:line", (_what, text, problem) => {
    const catalogue = stdioCatalogueFromText(text, { file });
    expect(catalogue.ok).toBe(false);
    if (!catalogue.ok) expect(catalogue.problem).toMatch(problem);
  });

  it("refuses two entries with one command line (a stored entry could not tell them apart)", () => {
    const text = JSON.stringify({ servers: { a: { title: "A", command: "node", args: ["s.js"] }, b: { title: "B", command: "node", args: ["s.js"], confine: {} } } });
    expect(stdioCatalogueFromText(text, { file })).toMatchObject({ ok: false, problem: expect.stringMatching(/'b' starts the same command line as 'a'/) });
  });

  it("keeps an entry whose command is not installed, with no executable (it can never start)", () => {
    const catalogue = stdioCatalogueFromText(entry({ command: "no-such-program-here" }), { file, searchPath: "/usr/bin" });
    expect(catalogue).toMatchObject({ ok: true, entries: [{ id: "files", executable: null }] });
  });

  it("is found through SWITCHBOARD_STDIO_CATALOGUE, else beside the SQLite database, else as shipped", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "switchboard-catalogue-"));
    expect(catalogueLocation({ SWITCHBOARD_STDIO_CATALOGUE: "/etc/mine.json" })).toBe("/etc/mine.json");
    expect(catalogueLocation({ DATABASE_URL: `file:${folder}/switchboard.db` })).toBe(path.resolve("switchboard.stdio.json"));
    writeFileSync(path.join(folder, "switchboard.stdio.json"), entry({}));
    expect(catalogueLocation({ DATABASE_URL: `file:${folder}/switchboard.db` })).toBe(path.join(folder, "switchboard.stdio.json"));
    expect(catalogueLocation({ DATABASE_URL: "postgresql://db/x" })).toBe(path.resolve("switchboard.stdio.json"));
  });
});
