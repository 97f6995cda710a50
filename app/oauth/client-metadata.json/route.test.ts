import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appOrigin } from "@/lib/mcp/oauth/app-origin";
import { GET } from "./route";

/** The client ID metadata document as an authorization server fetches it, with the Host header an attacker chose. */
async function metadata(host: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await GET(new NextRequest("http://127.0.0.1:3000/oauth/client-metadata.json", { headers: { host, "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" } }));
  return { status: response.status, body: await response.json() };
}

afterEach(() => vi.unstubAllEnvs());

describe("the OAuth client metadata names the configured address, never the request's", () => {
  it("uses SWITCHBOARD_PUBLIC_URL whatever Host the request carries", async () => {
    vi.stubEnv("SWITCHBOARD_PUBLIC_URL", "https://switchboard.example.com");
    for (const host of ["127.0.0.1:3500@evil.example", "evil.example", "127.0.0.1:3000"]) {
      const { status, body } = await metadata(host);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        client_id: "https://switchboard.example.com/oauth/client-metadata.json",
        client_uri: "https://switchboard.example.com",
        redirect_uris: ["https://switchboard.example.com/servers/oauth/callback"],
      });
      expect(JSON.stringify(body)).not.toContain("evil");
    }
  });

  it("uses SWITCHBOARD_APP_URL without a public URL, and serves no document on http (a Host saying https changes nothing)", async () => {
    vi.stubEnv("SWITCHBOARD_PUBLIC_URL", "");
    vi.stubEnv("SWITCHBOARD_APP_URL", "https://app.example.org:8443/ignored/path");
    expect((await metadata("evil.example")).body).toMatchObject({ redirect_uris: ["https://app.example.org:8443/servers/oauth/callback"] });
    vi.stubEnv("SWITCHBOARD_APP_URL", "");
    const { status, body } = await metadata("evil.example");
    expect(status).toBe(404);
    expect(JSON.stringify(body)).not.toContain("evil");
  });
});

describe("appOrigin", () => {
  it("reads the configuration only: public URL, app URL, then npm start's address", () => {
    expect(appOrigin({ SWITCHBOARD_PUBLIC_URL: "https://a.example/x", SWITCHBOARD_APP_URL: "https://b.example" })).toBe("https://a.example");
    expect(appOrigin({ SWITCHBOARD_APP_URL: "http://127.0.0.1:4000" })).toBe("http://127.0.0.1:4000");
    expect(appOrigin({ PORT: "4100" })).toBe("http://127.0.0.1:4100");
    expect(appOrigin({})).toBe("http://127.0.0.1:3000");
    expect(appOrigin({ SWITCHBOARD_PUBLIC_URL: "https://user@a.example" })).toBeNull();
    expect(appOrigin({ SWITCHBOARD_PUBLIC_URL: "javascript:alert(1)" })).toBeNull();
  });
});
