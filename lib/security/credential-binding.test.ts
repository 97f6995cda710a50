import { describe, expect, it } from "vitest";
import { assertCredentialOrigins, CredentialOriginError } from "./credential-binding";

const bound = [{ label: "the credential 'github' of github", values: ["ghp_secret_value"], origins: ["https://api.github.com"] }];

describe("assertCredentialOrigins", () => {
  it("lets a credential go to its origin, and a request without it go anywhere", () => {
    expect(() => assertCredentialOrigins(new URL("https://api.github.com/search"), { headers: { authorization: "Bearer ghp_secret_value" } }, bound)).not.toThrow();
    expect(() => assertCredentialOrigins(new URL("https://example.org/"), { headers: { accept: "text/plain" }, body: "{}" }, bound)).not.toThrow();
  });

  it.each([
    ["a header", { headers: { authorization: "Bearer ghp_secret_value" } }, "https://evil.example/x"],
    ["the query", {}, "https://evil.example/x?token=ghp_secret_value"],
    ["the body", { body: JSON.stringify({ copy: "ghp_secret_value" }) }, "https://evil.example/x"],
    ["a Basic header", { headers: { authorization: `Basic ${Buffer.from("me:ghp_secret_value").toString("base64")}` } }, "https://evil.example/x"],
    ["another port of the same host", { headers: { "x-api-key": "ghp_secret_value" } }, "https://api.github.com:8443/x"],
  ])("refuses it in %s for another origin, naming the credential and the origin", (_, request, url) => {
    const attempt = () => assertCredentialOrigins(new URL(url), request, bound);
    expect(attempt).toThrow(CredentialOriginError);
    expect(attempt).toThrow(`refused to send the credential 'github' of github to ${new URL(url).origin}: it may only go to https://api.github.com`);
  });
});
