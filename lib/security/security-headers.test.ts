import { describe, expect, it } from "vitest";
import config from "../../next.config";
import { embedSecurityHeaders } from "./security-headers";
import { frameAncestors } from "../embed/widget-origins";

describe("security headers", () => {
  it("are set on every path but a chat widget's frame and an MCP App's frame: CSP without framing, X-Frame-Options, nosniff, Referrer-Policy", async () => {
    const rules = await config.headers!();
    const everyPath = rules.find((rule) => rule.source === "/:path((?!embed/|app-frame/).*)");
    const headers = Object.fromEntries((everyPath?.headers ?? []).map((header) => [header.key, header.value]));
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).toContain("default-src 'self'");
    expect(headers["Content-Security-Policy"]).toContain("object-src 'none'");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    const source = new RegExp(`^/${"((?!embed/|app-frame/).*)"}$`);
    expect(["/", "/workflows/demo", "/embed.js", "/embedded", "/runs/r1", "/api/app-frame/x"].every((path) => source.test(path))).toBe(true);
    expect(source.test("/embed/cw_1")).toBe(false);
    // The app frame's route sends its own policy (lib/mcp/apps appFrameHeaders); two policies would both apply.
    expect(source.test("/app-frame/r1")).toBe(false);
  });

  it("let a chat widget's frame be framed by its origins only, with the rest of the policy", () => {
    const headers = Object.fromEntries(embedSecurityHeaders(frameAncestors(["https://shop.example"])).map((header) => [header.key, header.value]));
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors https://shop.example");
    expect(headers["Content-Security-Policy"]).not.toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).toContain("object-src 'none'");
    expect(headers["X-Frame-Options"]).toBeUndefined();
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    const none = Object.fromEntries(embedSecurityHeaders(frameAncestors([])).map((header) => [header.key, header.value]));
    expect(none["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
  });
});
