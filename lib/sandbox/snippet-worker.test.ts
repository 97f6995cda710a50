import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const entry = path.join(import.meta.dirname, "snippet-worker.mjs");

/** Starts one snippet thread on the entry in a fresh Node process (with `flags`) and answers what it said first and how the process loads TypeScript. */
async function firstWords(flags: string[]): Promise<{ reply: unknown; typescript: unknown }> {
  const script = `
    const { Worker } = require("node:worker_threads");
    const worker = new Worker(${JSON.stringify(entry)});
    worker.once("message", (reply) => { console.log(JSON.stringify({ reply, typescript: process.features.typescript ?? false })); worker.terminate(); });
    worker.once("error", (error) => { console.error(error.stack); process.exit(1); });`;
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, "-e", script], { timeout: 60_000 });
  return JSON.parse(stdout);
}

describe("the snippet thread's entry", () => {
  it("starts on Node's own type stripping: every file the thread imports is erasable TypeScript", async () => {
    const started = await firstWords([]);
    // Node 22.18 and later strip types by default (the repository's .nvmrc names a later 22).
    expect(started).toEqual({ reply: { type: "ready" }, typescript: "strip" });
  }, 60_000);

  it("starts through tsx where Node does not strip types", async () => {
    expect(await firstWords(["--no-experimental-strip-types"])).toEqual({ reply: { type: "ready" }, typescript: false });
  }, 60_000);
});
