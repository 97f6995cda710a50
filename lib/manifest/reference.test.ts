import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderManifestReference, spliceReference } from "./reference";

describe("docs/nodes.md", () => {
  it("holds exactly the reference the schemas generate (run `npm run docs:nodes` after changing a schema)", async () => {
    const page = await readFile(path.join(import.meta.dirname, "../../docs/nodes.md"), "utf8");
    expect(spliceReference(page, renderManifestReference())).toBe(page);
  });

  it("gives every key of every file a meaning", () => {
    const undocumented = renderManifestReference()
      .split("\n")
      .filter((line) => line.startsWith("| `") && line.trimEnd().endsWith("|  |"));
    expect(undocumented).toEqual([]);
  });
});
