import { describe, expect, it } from "vitest";
import config from "../../next.config";

describe("security headers", () => {
  it("are set on every path: CSP without framing, X-Frame-Options, nosniff, Referrer-Policy", async () => {
    const rules = await config.headers!();
    const everyPath = rules.find((rule) => rule.source === "/:path*");
    const headers = Object.fromEntries((everyPath?.headers ?? []).map((header) => [header.key, header.value]));
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).toContain("default-src 'self'");
    expect(headers["Content-Security-Policy"]).toContain("object-src 'none'");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });
});
