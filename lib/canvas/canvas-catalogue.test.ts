import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintNodes } from "../manifest";
import { canvasCatalogue, canvasNodeTypes } from "./canvas-catalogue";

const folder = await mkdtemp(path.join(os.tmpdir(), "sb-canvas-catalogue-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

const face = (name: string) => `name: ${name}\ntitle: ${name}\ndescription: Reads a thing.\ncategory: Requests\nkind: PromiseNode\noutputs:\n  - name: thing\n    type: object\n`;

describe("canvasCatalogue", () => {
  it("lists a node whose api/run.yaml is broken, with its findings, but does not offer it", async () => {
    const nodes = path.join(folder, "nodes");
    for (const [name, run] of [["good-step", "- name: read\n  url: https://api.example.com/thing\n"], ["bad-step", "- name: read\n  url: https://api.example.com/thing\n  methd: GET\n"]]) {
      await mkdir(path.join(nodes, name, "api"), { recursive: true });
      await writeFile(path.join(nodes, name, "interface.yaml"), face(name));
      await writeFile(path.join(nodes, name, "api", "run.yaml"), run);
      await writeFile(path.join(nodes, name, "api", "events.yaml"), "- emit: thing\n");
    }
    const catalogue = canvasCatalogue(await lintNodes(nodes));
    const bad = catalogue.types.find((type) => type.name === "bad-step");
    const good = catalogue.types.find((type) => type.name === "good-step");
    expect(good?.usable).toBe(true);
    expect(bad?.usable).toBe(false);
    expect(bad?.lint.map((finding) => finding.rule)).toContain("unknown-key");
    expect(canvasNodeTypes(catalogue)("bad-step")).toBeUndefined();
    expect(canvasNodeTypes(catalogue)("good-step")).toBeDefined();
  });
});
