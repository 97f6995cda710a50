import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit";
import type { SqlStatement } from "./sql-database";

const statement = (name: string): SqlStatement => [name, []];

describe("groupCommit", () => {
  it("commits transactions asked for together as one, in order, and resolves each once it is committed", async () => {
    const commits: string[][] = [];
    const transaction = groupCommit(async (list) => {
      commits.push(list.map(([sql]) => sql));
    });
    let resolvedBeforeCommit = false;
    const first = transaction([statement("a1"), statement("a2")]).then(() => (resolvedBeforeCommit ||= commits.length === 0));
    await Promise.all([first, transaction([statement("b")]), transaction([statement("c")])]);
    expect(commits).toEqual([["a1", "a2", "b", "c"]]);
    expect(resolvedBeforeCommit).toBe(false);
  });

  it("takes what arrives while a commit is under way into the next one", async () => {
    const commits: string[][] = [];
    let release!: () => void;
    const transaction = groupCommit(async (list) => {
      commits.push(list.map(([sql]) => sql));
      if (commits.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = transaction([statement("a")]);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [transaction([statement("b")]), transaction([statement("c")])];
    release();
    await Promise.all([first, ...later]);
    expect(commits).toEqual([["a"], ["b", "c"]]);
  });

  it("fails only the transaction that cannot commit: the others of its group commit on their own", async () => {
    const committed: string[][] = [];
    const transaction = groupCommit(async (list) => {
      if (list.some(([sql]) => sql === "bad")) throw new Error("constraint failed");
      committed.push(list.map(([sql]) => sql));
    });
    const results = await Promise.allSettled([transaction([statement("a")]), transaction([statement("bad")]), transaction([statement("c")])]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(committed).toEqual([["a"], ["c"]]);
  });
});
