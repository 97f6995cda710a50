import { describe, expect, it } from "vitest";
import type { OriginChange } from "./action-types";
import { mergeOriginNotices, noticeEntries, withoutApproved } from "./origin-notices";

const change = (origin: string, before: string[] = []): OriginChange => ({
  nodeId: "agent",
  nodeType: "openai-agent",
  credential: "openai",
  before,
  after: [origin],
  unapproved: [origin],
  approved: ["https://api.openai.com"],
});

describe("the origin notice across saves", () => {
  it("typing a URL save by save: one line, the first before, the last after", () => {
    let lines = mergeOriginNotices([], { originChanges: [change("https://a.example", ["https://api.openai.com"])], pendingOrigins: [change("https://a.example")] });
    lines = mergeOriginNotices(lines, { originChanges: [change("https://at.example", ["https://a.example"])], pendingOrigins: [change("https://at.example")] });
    expect(lines).toEqual([{ nodeId: "agent", nodeType: "openai-agent", credential: "openai", origin: "https://at.example", before: ["https://api.openai.com"], after: ["https://at.example"], approved: ["https://api.openai.com"] }]);
  });

  it("an unchanged save keeps the lines that still wait; undoing the edit clears them", () => {
    const lines = mergeOriginNotices([], { originChanges: [change("https://a.example", ["https://api.openai.com"])], pendingOrigins: [change("https://a.example")] });
    expect(mergeOriginNotices(lines, { originChanges: [], pendingOrigins: [change("https://a.example")] })).toEqual(lines);
    expect(mergeOriginNotices(lines, { originChanges: [], pendingOrigins: [] })).toEqual([]);
  });

  it("an approval removes the origin's line", () => {
    const lines = noticeEntries([change("https://a.example")]);
    expect(withoutApproved(lines, "openai-agent", "openai", "https://a.example")).toEqual([]);
    expect(withoutApproved(lines, "openai-agent", "openai", "https://b.example")).toEqual(lines);
  });
});
