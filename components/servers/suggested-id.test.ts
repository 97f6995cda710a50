import { describe, expect, it } from "vitest";
import { suggestedServerId } from "./suggested-id";

describe("suggestedServerId", () => {
  it("makes a registry id of a name", () => {
    expect(suggestedServerId("GitHub (work)")).toBe("github-work");
    expect(suggestedServerId("  Everything server  ")).toBe("everything-server");
    expect(suggestedServerId("Café Ünïcode")).toBe("cafe-unicode");
    expect(suggestedServerId("!!!")).toBe("");
    expect(suggestedServerId("x".repeat(80))).toHaveLength(64);
  });
});
