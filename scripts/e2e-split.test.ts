import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileFilter, readDurations, specFiles, splitByDuration } from "./e2e-split.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("dealing the browser-test files out to shards", () => {
  it("gives every file to exactly one shard, longest first to the shard with the least time", () => {
    const seconds = { "e2e/a.spec.ts": 90, "e2e/b.spec.ts": 60, "e2e/c.spec.ts": 40, "e2e/d.spec.ts": 30, "e2e/e.spec.ts": 20 };
    const lists = splitByDuration(Object.keys(seconds), seconds, 2);
    expect(lists).toEqual([["e2e/a.spec.ts", "e2e/d.spec.ts"], ["e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/e.spec.ts"]]);
    // 120 s each, where splitting by count in path order gives 190 s and 50 s.
    expect(lists.map((list) => list.reduce((sum, file) => sum + seconds[file as keyof typeof seconds], 0))).toEqual([120, 120]);
  });

  it("counts a file with no figure as the median, and leaves a shard empty when there are fewer files than shards", () => {
    expect(splitByDuration(["e2e/new.spec.ts", "e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/c.spec.ts"], { "e2e/a.spec.ts": 50, "e2e/b.spec.ts": 10, "e2e/c.spec.ts": 10 }, 2)).toEqual([["e2e/a.spec.ts"], ["e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/new.spec.ts"]]);
    expect(splitByDuration(["e2e/a.spec.ts"], {}, 3)).toEqual([["e2e/a.spec.ts"], [], []]);
  });

  it("covers every spec file of the repository once, without the kill drill, whatever e2e/durations.json says", () => {
    const files = specFiles(root);
    expect(files).toContain("e2e/canvas.spec.ts");
    expect(files).not.toContain("e2e/embedded-drill.spec.ts");
    const lists = splitByDuration(files, readDurations(root), 2);
    expect(lists.flat().sort()).toEqual(files);
    expect(lists.every((list) => list.length > 0)).toBe(true);
  });

  it("filters one file: not another whose name ends alike", () => {
    const filter = new RegExp(fileFilter("e2e/chat.spec.ts"));
    expect(filter.test("/work/app/e2e/chat.spec.ts")).toBe(true);
    expect(filter.test("/work/app/e2e/chat-embed.spec.ts")).toBe(false);
    expect(filter.test("/work/app/e2e/group-chat.spec.ts")).toBe(false);
  });
});
