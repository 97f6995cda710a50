import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintNodes } from ".";
import { callOrigins, defaultCredentialOrigins } from "./credential-origins";

describe("defaultCredentialOrigins", () => {
  it("reads each shipped credential's origins from its manifest: declared, else the config default its call URLs start from", async () => {
    const catalogue = await lintNodes(path.resolve("nodes"));
    const origins = Object.fromEntries(
      catalogue.nodes.flatMap((node) => (node.manifest?.interface.credentials ?? []).map((credential) => [`${node.name}/${credential.name}`, defaultCredentialOrigins(node.manifest!, credential)])),
    );
    expect(origins["openai-agent/openai"]).toEqual(["https://api.openai.com"]);
    expect(origins["anthropic-agent/anthropic"]).toEqual(["https://api.anthropic.com"]);
    expect(origins["github/github"]).toEqual(["https://api.github.com"]);
    expect(origins["slack/slack"]).toEqual(["https://slack.com"]);
    // Every credential has somewhere to go: none is left unusable by default.
    expect(Object.entries(origins).filter(([, list]) => list.length === 0)).toEqual([]);
  });
});

describe("callOrigins", () => {
  it("names where a node's config sends its calls: an imported baseUrl is the attacker's origin", async () => {
    const catalogue = await lintNodes(path.resolve("nodes"));
    const agent = catalogue.nodes.find((node) => node.name === "openai-agent")!.manifest!;
    expect(callOrigins(agent, { baseUrl: "https://attacker.example/v1" })).toEqual(["https://attacker.example"]);
  });
});
