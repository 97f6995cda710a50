import { describe, expect, it } from "vitest";
import { renderUrl } from "./render-url";

const scope = {
  config: { badHost: "evil.example/path", hostWithUser: "user@evil.example", hostPort: "api.example.com:8443", apiUrl: "https://api.example.com", apiV1: "https://api.example.com/v1/", host: "api.example.com", searchUrl: "https://api.example.com/search?lang=en" },
  params: {
    name: "a b/c",
    id: 42,
    up: "..",
    here: "./x",
    nested: "a/../../admin",
    at: "@evil.com",
    dotHost: ".evil.com",
    port: ":8080",
    doubleSlash: "//evil.com",
    query: "a&b=c#frag",
    encodedDots: "%2e%2e",
    backslash: "a\\..\\b",
    unicode: "café/ü",
    question: "x?admin=1",
  },
};

describe("renderUrl", () => {
  it.each([
    ["{{ config.apiUrl }}/items/{{ params.name }}", "https://api.example.com/items/a%20b/c"],
    ["{{ config.apiV1 }}/items/{{ params.id }}", "https://api.example.com/v1/items/42"],
    ["https://api.example.com/items/{{ params.name }}", "https://api.example.com/items/a%20b/c"],
    ["https://api.example.com/search?q={{ params.query }}", "https://api.example.com/search?q=a%26b%3Dc%23frag"],
    ["{{ config.searchUrl }}&q={{ params.name }}", "https://api.example.com/search?lang=en&q=a%20b%2Fc"],
    ["https://api.example.com/files/{{ params.question }}", "https://api.example.com/files/x%3Fadmin%3D1"],
    ["https://api.example.com/{{ params.encodedDots }}", "https://api.example.com/%252e%252e"],
    ["https://api.example.com/{{ params.backslash }}", "https://api.example.com/a%5C..%5Cb"],
    ["https://api.example.com/{{ params.unicode }}", "https://api.example.com/caf%C3%A9/%C3%BC"],
    ["https://api.example.com/{{ params.missing }}", "https://api.example.com/"],
    ["https://api.example.com/x#{{ params.query }}", "https://api.example.com/x#a%26b%3Dc%23frag"],
    ["{{ config.apiUrl }}", "https://api.example.com/"],
    ["https://{{ config.host }}/items/{{ params.name }}", "https://api.example.com/items/a%20b/c"],
    ["https://{{ config.hostPort }}/x", "https://api.example.com:8443/x"],
  ])("%s → %s", async (template, expected) => {
    expect((await renderUrl(template, scope)).href).toBe(expected);
  });

  it("encodes a path value per segment, keeping its slashes", async () => {
    const url = await renderUrl("{{ config.apiUrl }}/repos/{{ params.name }}", scope);
    expect(url.pathname).toBe("/repos/a%20b/c");
  });

  it("encodes a query value whole, slashes included", async () => {
    const url = await renderUrl("{{ config.apiUrl }}/search?q={{ params.name }}", scope);
    expect(url.searchParams.get("q")).toBe("a b/c");
  });

  it.each([
    ["{{ config.apiUrl }}/items/{{ params.up }}", /'\.\.' path segment/],
    ["{{ config.apiUrl }}/items/{{ params.here }}", /'\.' path segment/],
    ["{{ config.apiUrl }}/items/{{ params.nested }}", /'\.\.' path segment/],
    ["https://api.example.com/items/{{ params.up }}", /'\.\.' path segment/],
  ])("refuses a dot segment: %s", async (template, reason) => {
    await expect(renderUrl(template, scope)).rejects.toThrow(reason);
  });

  it.each([
    ["{{ config.apiUrl }}{{ params.at }}"],
    ["https://api.example.com{{ params.at }}"],
    ["{{ config.apiUrl }}{{ params.dotHost }}"],
    ["https://api.example.com{{ params.dotHost }}"],
    ["{{ config.apiUrl }}{{ params.port }}"],
    ["https://api.{{ params.dotHost }}/x"],
    ["https://{{ config.host }}{{ params.dotHost }}/x"],
    ["https://{{ config.host }}.{{ params.id }}/x"],
    ["https://{{ config.host }}{{ params.at }}"],
  ])("never lets a value change the origin: %s", async (template) => {
    let rendered: URL | undefined;
    try {
      rendered = await renderUrl(template, scope);
    } catch {
      // refused: the wanted outcome
    }
    expect(rendered?.origin ?? "refused").toBe("refused");
  });

  it("names the origin it would have left", async () => {
    await expect(renderUrl("{{ config.apiUrl }}{{ params.dotHost }}", scope)).rejects.toThrow("the rendered URL left its origin https://api.example.com");
  });

  it("keeps a value starting with // in the path", async () => {
    const url = await renderUrl("{{ config.apiUrl }}{{ params.doubleSlash }}", scope);
    expect(url.origin).toBe("https://api.example.com");
    expect(url.pathname).toBe("//evil.com");
  });

  it.each([
    ["{{ params.at }}/x", /host cannot come from \{\{ params\.at \}\}/],
    ["{{ inputs.url }}", /host cannot come from/],
    ["https://{{ params.at }}/x", /host can only come from the node's config/],
    ["https://{{ config.badHost }}/x", /config\.badHost must be a bare host name/],
    ["https://{{ config.hostWithUser }}/x", /config\.hostWithUser must be a bare host name/],
    ["{{ config.missing }}/x", /not an absolute http\(s\) URL/],
    ["/relative/{{ params.id }}", /not an absolute http\(s\) URL/],
    ["return 'https://api.example.com'", /must start with its literal origin/],
  ])("refuses a host a template could choose: %s", async (template, reason) => {
    await expect(renderUrl(template, scope)).rejects.toThrow(reason);
  });

  it("says which value broke the URL when the result does not parse", async () => {
    await expect(renderUrl("{{ config.apiUrl }}{{ params.at }}", scope)).rejects.toThrow(/params\.at|origin|host/);
  });
});
