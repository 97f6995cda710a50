import { describe, expect, it } from "vitest";
import { authorizeEndpointRequest } from "./workflow-endpoint-http";

const token = "a-long-enough-token-1234";
const request = (headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/mcp/demo", { method: "POST", headers: { host: "127.0.0.1:3000", ...headers } });
const messageOf = async (response: Response | null) => ((await response?.json()) as { error: { message: string } } | undefined)?.error.message;

describe("authorizeEndpointRequest", () => {
  it("lets the right bearer token in", () => {
    expect(authorizeEndpointRequest(request({ authorization: `Bearer ${token}` }), token)).toBeNull();
    expect(authorizeEndpointRequest(request({ authorization: `bearer ${token}`, origin: "http://127.0.0.1:3000" }), token)).toBeNull();
  });

  it("is off (401, saying how to turn it on) while no token, or too short a token, is configured", async () => {
    const off = authorizeEndpointRequest(request({ authorization: "Bearer anything" }), undefined);
    expect(off?.status).toBe(401);
    expect(await messageOf(off)).toMatch(/SWITCHBOARD_MCP_TOKEN is not set\. To turn it on, set SWITCHBOARD_MCP_TOKEN/);
    const short = authorizeEndpointRequest(request({ authorization: "Bearer short" }), "short");
    expect(await messageOf(short)).toContain("shorter than 16 characters");
  });

  it("refuses a missing or wrong token with 401 and a Bearer challenge", async () => {
    for (const headers of [{} as Record<string, string>, { authorization: "Bearer wrong-token-wrong-token" }, { authorization: `Basic ${token}` }, { authorization: `Bearer ${token}x` }]) {
      const refused = authorizeEndpointRequest(request(headers), token);
      expect(refused?.status).toBe(401);
      expect(refused?.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });

  it("refuses a browser page of another origin, even with the token (DNS rebinding)", () => {
    expect(authorizeEndpointRequest(request({ authorization: `Bearer ${token}`, origin: "http://evil.example" }), token)?.status).toBe(403);
    expect(authorizeEndpointRequest(request({ authorization: `Bearer ${token}`, origin: "null" }), token)?.status).toBe(403);
  });
});
