import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintNodes } from ".";
import { defaultCredentialOrigins } from "./credential-origins";

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
