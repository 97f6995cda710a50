import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The commands run from their bundle (scripts/cli.mjs); one that is missing or stale is built
// again, and without a bundle they still run through tsx.

const root = path.resolve(import.meta.dirname, "..");
let folder: string;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "scripts", "cli.mjs"), ...args], { cwd: root, env: { ...process.env, SWITCHBOARD_CLI_DIR: folder, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-cli-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("scripts/cli.mjs", () => {
  it("bundles the commands when there is no bundle, then runs from it", async () => {
    const first = await cli(["workflow", "--help"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("usage: npm run workflow -- run FILE.json");
    const manifest = JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")) as { root: string; folder: string; inputs: string[] };
    expect(manifest.root).toBe(root);
    expect(manifest.inputs).toContain("scripts/workflow.ts");
    expect(manifest.inputs).toContain("lib/manifest/lint/index.ts");

    const again = await cli(["workflow", "--help"]);
    expect(again.stdout).toBe(first.stdout);
    expect(JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")).folder).toBe(manifest.folder);
  }, 120_000);

  it("builds again when the bundle is older than one of its sources, or was built in another checkout", async () => {
    const path_ = path.join(folder, "manifest.json");
    const manifest = JSON.parse(await readFile(path_, "utf8")) as { builtAt: number; root: string; folder: string };
    await writeFile(path_, JSON.stringify({ ...manifest, builtAt: 0 }));
    expect((await cli(["workflow", "--help"])).code).toBe(0);
    const rebuilt = JSON.parse(await readFile(path_, "utf8")) as typeof manifest;
    expect(rebuilt.folder).not.toBe(manifest.folder);

    await writeFile(path_, JSON.stringify({ ...rebuilt, root: "/elsewhere" }));
    expect((await cli(["workflow", "--help"])).code).toBe(0);
    expect(JSON.parse(await readFile(path_, "utf8")).folder).not.toBe(rebuilt.folder);
  }, 120_000);

  it("runs a command through tsx when asked to (or when it cannot bundle), with the same result", async () => {
    const bundled = await cli(["lint-nodes", "--format", "json"]);
    const transpiled = await cli(["lint-nodes", "--format", "json"], { SWITCHBOARD_CLI: "tsx" });
    expect(transpiled.code).toBe(bundled.code);
    expect(JSON.parse(transpiled.stdout)).toEqual(JSON.parse(bundled.stdout));
  }, 120_000);

  it("answers an unchanged catalogue's lint from its cache, and lints again once a node changes", async () => {
    const nodes = path.join(folder, "nodes");
    await execFileAsync("cp", ["-r", path.join(root, "nodes"), nodes]);
    const clean = await cli(["lint-nodes", "--dir", nodes, "--format", "json"]);
    expect(clean.code).toBe(0);
    expect(JSON.parse(await readFile(path.join(folder, "lint-nodes-cache.json"), "utf8")).result.nodes).toBeGreaterThan(0);
    const interfaceFile = path.join(nodes, "unit-converter", "interface.yaml");
    await writeFile(interfaceFile, `${await readFile(interfaceFile, "utf8")}\nnot: [valid`);
    const broken = await cli(["lint-nodes", "--dir", nodes, "--format", "json"]);
    expect(broken.code).toBe(1);
    expect((JSON.parse(broken.stdout) as Array<{ node: string }>).some((row) => row.node === "unit-converter")).toBe(true);
  }, 120_000);
});

function execFileAsync(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile(file, args, (error) => (error ? reject(error) : resolve())));
}
