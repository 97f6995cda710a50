import { describe, expect, it } from "vitest";
import { entryFingerprint, processToolIndex, ToolIndex } from "./tool-index";

/** A lister double: answers each server's names from a table, counting calls; a server whose answer is a promise waits on it. */
function listerDouble(table: Record<string, string[] | Promise<string[]> | Error>) {
  const calls: string[] = [];
  const list = async (id: string) => {
    calls.push(id);
    const answer = await table[id];
    if (answer instanceof Error) throw answer;
    return answer ?? [];
  };
  return { list, calls };
}

const everything = { id: "everything", fingerprint: "f1" };

describe("ToolIndex", () => {
  it("lists a server it has never seen, then answers from memory", async () => {
    const lister = listerDouble({ everything: ["echo", "add"] });
    const index = new ToolIndex(lister.list, { refreshAfterMs: 60_000, retryFailedAfterMs: 30_000 });
    expect((await index.lookup([everything], 1_000)).get("everything")).toEqual(["echo", "add"]);
    expect((await index.lookup([everything], 1_000)).get("everything")).toEqual(["echo", "add"]);
    expect(lister.calls).toEqual(["everything"]);
  });

  it("lists again when the server's entry changed", async () => {
    const lister = listerDouble({ everything: ["echo"] });
    const index = new ToolIndex(lister.list, { refreshAfterMs: 60_000, retryFailedAfterMs: 30_000 });
    await index.lookup([everything], 1_000);
    await index.lookup([{ id: "everything", fingerprint: "f2" }], 1_000);
    expect(lister.calls).toEqual(["everything", "everything"]);
  });

  it("answers stale names at once and lists them again in the background", async () => {
    let now = 0;
    const table: Record<string, string[]> = { everything: ["echo"] };
    const lister = listerDouble(table);
    const index = new ToolIndex(lister.list, { refreshAfterMs: 1_000, retryFailedAfterMs: 30_000, now: () => now });
    await index.lookup([everything], 1_000);
    table.everything = ["echo", "longRunningOperation"];
    now = 5_000;
    expect((await index.lookup([everything], 1_000)).get("everything")).toEqual(["echo"]);
    await index.refresh(everything);
    expect(index.names(everything)).toEqual(["echo", "longRunningOperation"]);
  });

  it("waits no longer than asked for a slow server, and keeps its names for the next lookup", async () => {
    let answer!: (names: string[]) => void;
    const lister = listerDouble({ slow: new Promise<string[]>((resolve) => (answer = resolve)) });
    const index = new ToolIndex(lister.list, { refreshAfterMs: 60_000, retryFailedAfterMs: 30_000 });
    const slow = { id: "slow", fingerprint: "f" };
    expect((await index.lookup([slow], 10)).has("slow")).toBe(false);
    answer(["echo"]);
    await index.refresh(slow);
    expect((await index.lookup([slow], 10)).get("slow")).toEqual(["echo"]);
    expect(lister.calls).toEqual(["slow"]);
  });

  it("gives a server that cannot be listed no names, and forgets a server on request", async () => {
    const lister = listerDouble({ down: new Error("connection refused"), everything: ["echo"] });
    const index = new ToolIndex(lister.list, { refreshAfterMs: 60_000, retryFailedAfterMs: 30_000 });
    const found = await index.lookup([{ id: "down", fingerprint: "f" }, everything], 1_000);
    expect([...found.keys()]).toEqual(["everything"]);
    index.forget("everything");
    expect(index.names(everything)).toBeUndefined();
  });
});

describe("ToolIndex and a server that is down", () => {
  it("waits for it again only once the retry time has passed", async () => {
    let now = 0;
    const lister = listerDouble({ down: new Error("connection refused") });
    const index = new ToolIndex(lister.list, { refreshAfterMs: 60_000, retryFailedAfterMs: 30_000, now: () => now });
    const down = { id: "down", fingerprint: "f" };
    await index.lookup([down], 1_000);
    now = 10_000;
    await index.lookup([down], 1_000);
    expect(lister.calls).toEqual(["down"]);
    now = 40_000;
    await index.lookup([down], 1_000);
    expect(lister.calls).toEqual(["down", "down"]);
  });
});

describe("entryFingerprint", () => {
  it("differs when the entry does", () => {
    expect(entryFingerprint({ command: "node", args: ["a"] })).toBe(entryFingerprint({ command: "node", args: ["a"] }));
    expect(entryFingerprint({ command: "node", args: ["a"] })).not.toBe(entryFingerprint({ command: "node", args: ["b"] }));
  });
});

describe("processToolIndex", () => {
  it("is made once, by the first caller that can make it; others only read it", () => {
    expect(processToolIndex()).toBeUndefined();
    const made = processToolIndex(() => new ToolIndex(async () => [], { refreshAfterMs: 1, retryFailedAfterMs: 1 }));
    expect(made).toBeInstanceOf(ToolIndex);
    expect(processToolIndex(() => new ToolIndex(async () => ["other"], { refreshAfterMs: 1, retryFailedAfterMs: 1 }))).toBe(made);
    expect(processToolIndex()).toBe(made);
  });
});
