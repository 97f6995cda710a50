import { describe, expect, it } from "vitest";
import type { ToolAppOutcome } from "../mcp";
import { toolAppReadMs, ToolAppReads, toolAppReadsKept } from "./tool-app-reads";

const app = (uri: string): ToolAppOutcome => ({ kind: "text", uri, reason: "a stand-in outcome" });

describe("ToolAppReads", () => {
  it("asks the server once a minute for the same entry and tool, and again when the entry, a secret or the tool differs", async () => {
    let clock = 0;
    const reads = new ToolAppReads(() => clock);
    let asked = 0;
    const ask = async () => ({ outcome: app(`ui://${(asked += 1)}`), keep: true });
    const source = { entry: { id: "apps", url: "https://apps.example.test/mcp" }, secretValues: { token: "a" }, tool: "peek" };
    expect(await reads.read(source, ask)).toEqual(app("ui://1"));
    expect(await reads.read(source, ask)).toEqual(app("ui://1"));
    expect(asked).toBe(1);
    expect(await reads.read({ ...source, tool: "other" }, ask)).toEqual(app("ui://2"));
    expect(await reads.read({ ...source, secretValues: { token: "b" } }, ask)).toEqual(app("ui://3"));
    expect(await reads.read({ ...source, entry: { ...source.entry, url: "https://moved.example.test/mcp" } }, ask)).toEqual(app("ui://4"));
    clock += toolAppReadMs;
    expect(await reads.read(source, ask)).toEqual(app("ui://5"));
    expect(asked).toBe(5);
  });

  it("does not keep a read that failed, and keeps only the newest few", async () => {
    const reads = new ToolAppReads(() => 0);
    let asked = 0;
    const failing = async () => ({ outcome: app(`failed ${(asked += 1)}`), keep: false });
    const source = { entry: { id: "down" }, secretValues: {}, tool: "peek" };
    await reads.read(source, failing);
    await reads.read(source, failing);
    expect(asked).toBe(2);
    const ok = async () => ({ outcome: app(`read ${(asked += 1)}`), keep: true });
    for (let tool = 0; tool <= toolAppReadsKept; tool++) await reads.read({ ...source, tool: `t${tool}` }, ok);
    const before = asked;
    // The first one kept was the oldest and went; the newest is still there.
    await reads.read({ ...source, tool: "t0" }, ok);
    await reads.read({ ...source, tool: `t${toolAppReadsKept}` }, ok);
    expect(asked).toBe(before + 1);
  });
});
