import { describe, expect, it } from "vitest";
import { type CanvasServer, serverSearchText } from "./canvas-servers";

const everything: CanvasServer = { id: "everything", name: "Everything", availability: "available", toolNames: ["echo", "add"] };

describe("serverSearchText", () => {
  it("finds a server by a tool name from the page's tool index before its tools are listed", () => {
    expect(serverSearchText(everything, undefined)).toContain("echo");
    expect(serverSearchText(everything, { status: "loading" })).toContain("echo");
  });

  it("prefers the tools listed on the canvas, which are newer", () => {
    const listed = serverSearchText(everything, { status: "ready", tools: [{ name: "printEnv", description: "", inputSchema: {} }] });
    expect(listed).toContain("printenv");
    expect(listed).not.toContain("echo");
  });

  it("has no tool names when the index has none", () => {
    expect(serverSearchText({ ...everything, toolNames: undefined }, undefined)).toBe("everything everything  mcp server ");
  });
});
