import { cp, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedCatalogue, clearCatalogueCache } from "./catalogue-cache";
import { nodesVersion } from "./nodes-version";

const shipped = path.resolve(import.meta.dirname, "../../nodes");

describe("cachedCatalogue", () => {
  let folder: string;
  beforeEach(async () => {
    clearCatalogueCache();
    folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-catalogue-cache-"));
    await cp(path.join(shipped, "unit-converter"), path.join(folder, "unit-converter"), { recursive: true });
    await cp(path.join(shipped, "shared"), path.join(folder, "shared"), { recursive: true });
  });
  afterEach(async () => {
    clearCatalogueCache();
    await rm(folder, { recursive: true, force: true });
  });

  it("reads and lints a folder once while no file changes", async () => {
    const first = await cachedCatalogue(folder, { checkFiles: true });
    const second = await cachedCatalogue(folder, { checkFiles: true });
    expect(second).toBe(first);
    expect(first.nodes.map((node) => node.name)).toEqual(["unit-converter"]);
  });

  it("reads the folder again when a file is edited, added or removed", async () => {
    const interfaceFile = path.join(folder, "unit-converter", "interface.yaml");
    const first = await cachedCatalogue(folder, { checkFiles: true });
    await writeFile(interfaceFile, (await readFile(interfaceFile, "utf8")).replace(/^title: .*$/m, "title: Edited converter"));
    const edited = await cachedCatalogue(folder, { checkFiles: true });
    expect(edited).not.toBe(first);
    expect(edited.nodes[0].manifest?.interface.title).toBe("Edited converter");

    await cp(path.join(shipped, "weather"), path.join(folder, "weather"), { recursive: true });
    const added = await cachedCatalogue(folder, { checkFiles: true });
    expect(added.nodes.map((node) => node.name).sort()).toEqual(["unit-converter", "weather"]);

    await unlink(path.join(folder, "weather", "test.yaml"));
    const removed = await cachedCatalogue(folder, { checkFiles: true });
    expect(removed).not.toBe(added);
  });

  it("keeps the first read without looking at the files when asked not to check (production)", async () => {
    const interfaceFile = path.join(folder, "unit-converter", "interface.yaml");
    const first = await cachedCatalogue(folder, { checkFiles: false });
    await writeFile(interfaceFile, (await readFile(interfaceFile, "utf8")).replace(/^title: .*$/m, "title: Edited converter"));
    expect(await cachedCatalogue(folder, { checkFiles: false })).toBe(first);
  });

  it("checks the files at most every `everyMs` when asked to (a busy worker's runs)", async () => {
    const interfaceFile = path.join(folder, "unit-converter", "interface.yaml");
    const first = await cachedCatalogue(folder, { checkFiles: { everyMs: 600_000 } });
    await writeFile(interfaceFile, (await readFile(interfaceFile, "utf8")).replace(/^title: .*$/m, "title: Edited converter"));
    expect(await cachedCatalogue(folder, { checkFiles: { everyMs: 600_000 } })).toBe(first);
    const edited = await cachedCatalogue(folder, { checkFiles: { everyMs: 0 } });
    expect(edited).not.toBe(first);
    expect(edited.nodes[0].manifest?.interface.title).toBe("Edited converter");
  });

  it("reports a missing folder as the lint does, and tries again next time", async () => {
    const missing = path.join(folder, "nowhere");
    const catalogue = await cachedCatalogue(missing, { checkFiles: true }).catch((error: Error) => error);
    await cp(path.join(shipped, "unit-converter"), path.join(missing, "unit-converter"), { recursive: true });
    const later = await cachedCatalogue(missing, { checkFiles: true });
    expect(later).not.toBe(catalogue);
    expect(later.nodes.map((node) => node.name)).toEqual(["unit-converter"]);
  });
});

describe("nodesVersion", () => {
  it("is the same for an unchanged folder and names every file", () => {
    const version = nodesVersion(shipped);
    expect(nodesVersion(shipped)).toBe(version);
    expect(version).toContain("unit-converter/interface.yaml:");
  });

  it("is 'missing' for a folder that cannot be read", () => {
    expect(nodesVersion(path.join(os.tmpdir(), "switchboard-no-such-folder"))).toBe("missing");
  });
});
