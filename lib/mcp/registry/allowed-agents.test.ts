import { describe, expect, it } from "vitest";
import { mayUseServer } from "./allowed-agents";

describe("mayUseServer", () => {
  const writer = { nodeId: "writer", nodeType: "openai-agent" };

  it("lets every agent in when allowedAgents is absent or empty", () => {
    expect(mayUseServer({}, writer)).toBe(true);
    expect(mayUseServer({ allowedAgents: [] }, writer)).toBe(true);
  });

  it("matches a node id or a node type, nothing else", () => {
    expect(mayUseServer({ allowedAgents: ["writer"] }, writer)).toBe(true);
    expect(mayUseServer({ allowedAgents: ["openai-agent"] }, writer)).toBe(true);
    expect(mayUseServer({ allowedAgents: ["researcher", "anthropic-agent"] }, writer)).toBe(false);
    expect(mayUseServer({ allowedAgents: ["Writer"] }, writer)).toBe(false);
  });
});
