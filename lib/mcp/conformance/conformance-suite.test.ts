import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readAllResults, summary, withMissing } from "./conformance-suite";

let folder = "";
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** An output folder as the conformance suite writes it: a directory per scenario started, checks.json once it ended. */
async function outputFolder(scenarios: Record<string, Array<{ id: string; status: string }> | null>): Promise<string> {
  folder = await mkdtemp(path.join(os.tmpdir(), "conformance-output-"));
  for (const [name, checks] of Object.entries(scenarios)) {
    const directory = path.join(folder, `${name}-2026-12-01T16-17-03-486Z`);
    await mkdir(directory, { recursive: true });
    if (checks) await writeFile(path.join(directory, "checks.json"), JSON.stringify(checks));
  }
  return folder;
}

describe("reading the conformance suite's results", () => {
  it("counts a scenario that started and wrote no checks as failed, and one that never started when it was listed", async () => {
    const output = await outputFolder({
      ping: [{ id: "ping", status: "SUCCESS" }],
      "auth/metadata-default": [{ id: "metadata", status: "FAILURE" }],
      "tools-list": null,
    });
    // A scenario still writing its checks beside this read: no result yet, not a crash.
    await writeFile(path.join(output, "tools-list-2026-12-01T16-17-03-486Z", "checks.json"), '[{"id": "tools-li');
    const results = withMissing(["ping", "auth/metadata-default", "tools-list", "sse-retry"], await readAllResults(output));
    expect(results.map((result) => [result.scenario, result.passed, result.unfinished ?? false])).toEqual([
      ["auth/metadata-default", false, false],
      ["ping", true, false],
      ["sse-retry", false, true],
      ["tools-list", false, true],
    ]);
    expect(summary("client", results, new Map())).toBe("MCP conformance, client: 4 scenarios: 1 passed, 0 not applicable (docs/mcp-conformance.md), 3 failed");
  });
});
