import { describe, expect, it } from "vitest";
import { checkUiResource, uiResourceUriOf } from "./ui-resource";

const uri = "ui://clock/app.html";
const html = "<!doctype html><html><body><script>1</script></body></html>";

describe("uiResourceUriOf", () => {
  it("reads the nested and the older flat declaration, and nothing when there is none", () => {
    expect(uiResourceUriOf({ _meta: { ui: { resourceUri: uri } } })).toEqual({ uri });
    expect(uiResourceUriOf({ _meta: { "ui/resourceUri": uri } })).toEqual({ uri });
    expect(uiResourceUriOf({ _meta: {} })).toBeNull();
    expect(uiResourceUriOf(undefined)).toBeNull();
  });

  it("names a declaration that is not a ui:// URI", () => {
    expect(uiResourceUriOf({ _meta: { ui: { resourceUri: "https://example.test/app.html" } } })).toEqual({ error: expect.stringContaining("not a ui:// URI") });
  });
});

describe("checkUiResource", () => {
  it("frames MCP App HTML as given, with a policy that allows exactly the declared origins", () => {
    const outcome = checkUiResource(uri, [{ uri, mimeType: "text/html;profile=mcp-app", text: html, _meta: { ui: { csp: { connectDomains: ["https://api.example.test"], resourceDomains: ["https://cdn.example.test"] }, prefersBorder: true } } }]);
    expect(outcome.kind).toBe("app");
    if (outcome.kind !== "app") return;
    expect(outcome.html).toBe(html);
    expect(outcome.csp).toEqual({ connectDomains: ["https://api.example.test"], resourceDomains: ["https://cdn.example.test"], frameDomains: [], baseUriDomains: [] });
    // The policy's directives, one by one, are checked where it is served (app/app-frame/app-frame.test.ts).
    expect(outcome.policy).toMatch(/^default-src 'none'; script-src 'unsafe-inline' https:\/\/cdn\.example\.test; .*connect-src https:\/\/api\.example\.test; frame-src 'none'; .*sandbox allow-scripts$/);
    expect(outcome.prefersBorder).toBe(true);
  });

  it("allows no connection or outside resource when the resource declares none", () => {
    const outcome = checkUiResource(uri, [{ uri, mimeType: "text/html;profile=mcp-app", text: html }]);
    if (outcome.kind !== "app") throw new Error("expected an app");
    expect(outcome.policy).toContain("connect-src 'none'");
    expect(outcome.policy).toContain("script-src 'unsafe-inline';");
    expect(outcome.policy).not.toMatch(/https?:/);
  });

  it("drops declared origins that would smuggle directives into the policy", () => {
    const outcome = checkUiResource(uri, [{ uri, mimeType: "text/html;profile=mcp-app", text: html, _meta: { ui: { csp: { connectDomains: ["*", "https://ok.test", "https://x.test; script-src *", "'unsafe-eval'"] } } } }]);
    if (outcome.kind !== "app") throw new Error("expected an app");
    expect(outcome.csp.connectDomains).toEqual(["https://ok.test"]);
    expect(outcome.policy).not.toContain("unsafe-eval");
    expect(outcome.policy).not.toContain("x.test");
  });

  it("falls back to text, with the reason, when the resource is not MCP App HTML", () => {
    expect(checkUiResource(uri, [{ uri, mimeType: "application/json", text: "{}" }])).toEqual({ kind: "text", uri, reason: 'the UI resource is of type "application/json", not "text/html;profile=mcp-app" (HTML)' });
    expect(checkUiResource(uri, [{ uri, text: html }])).toMatchObject({ kind: "text", reason: expect.stringContaining("of no declared type") });
    expect(checkUiResource(uri, [])).toMatchObject({ kind: "text", reason: `the server returned no content for ${uri}` });
  });

  it("falls back to text, naming the size and the limit, when the resource is too large", () => {
    const outcome = checkUiResource(uri, [{ uri, mimeType: "text/html;profile=mcp-app", text: "x".repeat(3000) }], { maxBytes: 2048 });
    expect(outcome).toEqual({ kind: "text", uri, reason: "the UI resource is 3 KiB, over the limit of 2 KiB" });
  });

  it("reads a base64 blob as the HTML", () => {
    const outcome = checkUiResource(uri, [{ uri, mimeType: "text/html;profile=mcp-app", blob: Buffer.from(html).toString("base64") }]);
    expect(outcome.kind).toBe("app");
  });
});
