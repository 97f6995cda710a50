import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeFixtureTree } from "../../../testing/manifest/import-tree.fixture";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { importCommand } from "../../../scripts/import-nodes";
import { ImportInputError, importPackages } from ".";
import { insideTarget, segmentProblem } from "./import-names";

/**
 * Issue 21's attack on the importer: a package named "../../…/victim" had
 * its shared/ folder written (and first removed) outside the target, even
 * with --dry-run. Each test snapshots every file under a scratch root (the
 * target, its parent and a victim folder beside them) before and after.
 */
const root = await mkdtemp(path.join(os.tmpdir(), "sb-import-confined-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const tree = (files: Record<string, string>) => writeFixtureTree(root, files);

/** Every file under a folder with its content, by path: what a run must leave as it was. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, file)] = entry.isFile() ? await readFile(file, "utf8") : "(folder)";
  }
  return files;
}

const node = (type: string) => ({
  [`node.yaml`]: `type: ${type}\nkind: PromiseNode\nname: Branch\ncategory: Flow\ndescription: Routes a payload\n`,
  [`interface.yaml`]: "inputs:\n  - name: signal\n    type: object\noutputs:\n  - name: out\n    type: object\n",
  [`api/events.yaml`]: '- emit: out\n  value: "return response.signal"\n',
});
const packageFiles = (folder: string, packageYaml: string, type = "Branch") => ({
  [`${folder}/package.yaml`]: packageYaml,
  [`${folder}/shared/table.yaml`]: "other: 1\n",
  ...Object.fromEntries(Object.entries(node(type)).map(([file, text]) => [`${folder}/Branch/${file}`, text])),
});

await tree({
  "victim/keep.txt": "the victim's own file\n",
  "work/into/existing/interface.yaml": "name: existing\n",
  // The traversal resolves from <root>/work/into/shared/ to <root>/victim.
  ...packageFiles("source/evil", '# a hostile package\nname: "../../../victim"\ndisplayName: Evil\n'),
  ...packageFiles("slash/evil", "name: a/b\n"),
  ...packageFiles("dots/evil", "name: ..\n"),
  ...packageFiles("badtype/fine", "name: fine\n", '"../.."'),
  ...packageFiles("good/routing", "name: routing\n"),
});
const into = path.join(root, "work", "into");

let errors: string[];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((message: string) => void errors.push(message));
  vi.spyOn(console, "log").mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe("importing nodes stays inside the target", () => {
  it.each([false, true])("a package named ../../../victim writes nothing anywhere (dry run: %s), refused with its file:line", async (dryRun) => {
    const before = await snapshot(root);
    const code = await importCommand([path.join(root, "source/evil")], { into, dryRun, json: false });
    expect(code).toBe(2);
    expect(errors).toEqual([`nodes import: ${path.join(root, "source/evil/package.yaml")}:2: name: '../../../victim' is not one folder name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100, no '..' or separators)`]);
    expect(await snapshot(root)).toEqual(before);
  });

  it.each([
    ["slash/evil", /package\.yaml:1: name: 'a\/b' is not one folder name/],
    ["dots/evil", /package\.yaml:1: name: '\.\.' is not one folder name/],
    ["badtype/fine", /Branch\/node\.yaml:1: type: the node's folder name from "\.\.\/\.\." is not one folder name/],
  ])("%s is refused with its file:line, nothing written", async (folder, message) => {
    const before = await snapshot(root);
    await expect(importPackages(path.join(root, folder), { into })).rejects.toThrow(ImportInputError);
    await expect(importPackages(path.join(root, folder), { into })).rejects.toThrow(message);
    expect(await snapshot(root)).toEqual(before);
  });

  it("--dry-run of a good package writes nothing at all: the target, its parent and the temporary folder are as they were", async () => {
    const before = await snapshot(root);
    const temporary = (await readdir(os.tmpdir())).filter((name) => name.startsWith("sb-import-")).sort();
    const report = await importPackages(path.join(root, "good/routing"), { into, dryRun: true });
    expect(report).toMatchObject({ dryRun: true, into: "(dry run)" });
    expect(report.nodes.map((item) => item.name)).toEqual(["branch"]);
    expect(await snapshot(root)).toEqual(before);
    expect((await readdir(os.tmpdir())).filter((name) => name.startsWith("sb-import-")).sort()).toEqual(temporary);
  });

  it("a real import of a good package writes only under the target", async () => {
    const before = await snapshot(root);
    await importPackages(path.join(root, "good/routing"), { into });
    const after = await snapshot(root);
    const added = Object.keys(after).filter((file) => !(file in before));
    expect(added.length).toBeGreaterThan(0);
    expect(added.filter((file) => !file.startsWith(path.join("work", "into") + path.sep))).toEqual([]);
    expect(after["victim/keep.txt"]).toBe("the victim's own file\n");
  });
});

describe("the checks underneath", () => {
  it.each(["../x", "a/b", "a\\b", "..", ".", "", ".hidden", "x..y", "-flag", "a".repeat(101)])("%j is not one folder name", (name) => {
    expect(segmentProblem(name)).toMatch(/is not one folder name/);
  });
  it.each(["routing", "tables", "Fetch_2", "a.b", "vault-1"])("%j is", (name) => expect(segmentProblem(name)).toBeNull());

  it("a path that resolves outside the target is refused before anything is written", () => {
    expect(insideTarget("/srv/into", "shared", "routing")).toBe("/srv/into/shared/routing");
    expect(() => insideTarget("/srv/into", "shared", "../../victim")).toThrow(/refused to write \/srv\/victim: it is not inside the import's target \/srv\/into/);
    expect(() => insideTarget("/srv/into", "/etc/passwd")).toThrow(/not inside/);
    expect(() => insideTarget("/srv/into", "")).toThrow(/not inside/);
  });
});
