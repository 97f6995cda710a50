import { describe, expect, it } from "vitest";
import { readLimitedBody } from "./limited-body";
import { redactHeaders } from "./redact-headers";
import { webhookStartInput } from "./webhook-input";

const url = "http://127.0.0.1:3000/api/hooks/abc?source=ci&tag=a&tag=b&__proto__=x";

describe("redactHeaders", () => {
  it("hides credentials and signatures, keeps the rest, lower-cases names", () => {
    const headers = new Headers({
      Authorization: "Bearer sk-1",
      Cookie: "session=1",
      "X-Hub-Signature-256": "sha256=ab",
      "Stripe-Signature": "t=1,v1=ab",
      "webhook-signature": "v1,ab",
      "X-Api-Key": "k",
      "X-Auth-Token": "t",
      "X-Client-Secret": "s",
      "X-GitHub-Event": "push",
      "Content-Type": "application/json",
      "webhook-id": "msg_1",
    });
    expect(redactHeaders(headers)).toEqual({
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-hub-signature-256": "[redacted]",
      "stripe-signature": "[redacted]",
      "webhook-signature": "[redacted]",
      "x-api-key": "[redacted]",
      "x-auth-token": "[redacted]",
      "x-client-secret": "[redacted]",
      "x-github-event": "push",
      "content-type": "application/json",
      "webhook-id": "msg_1",
    });
  });
});

describe("webhookStartInput", () => {
  const headers = new Headers({ "Content-Type": "application/json", Authorization: "Bearer x" });
  const input = (body: string, contentType: string | null, deliveryId: string | null = "d-1") =>
    webhookStartInput({ body: Buffer.from(body), contentType, headers, url, deliveryId });

  it("parses JSON bodies, including +json types, and keeps text that does not parse", () => {
    expect(input('{"a":1}', "application/json; charset=utf-8")).toEqual({
      body: { a: 1 },
      headers: { "content-type": "application/json", authorization: "[redacted]" },
      query: { source: "ci", tag: ["a", "b"], ["__proto__"]: "x" },
      deliveryId: "d-1",
    });
    expect(input("[1,2]", "application/vnd.github+json").body).toEqual([1, 2]);
    expect(input("{not json", "application/json").body).toBe("{not json");
  });

  it("reads a form as an object, anything else as text, and an empty body as null", () => {
    expect(input("name=Ada&x=1&x=2", "application/x-www-form-urlencoded").body).toEqual({ name: "Ada", x: ["1", "2"] });
    expect(input('{"a":1}', "text/plain").body).toBe('{"a":1}');
    expect(input('{"a":1}', null).body).toBe('{"a":1}');
    expect(input("", "application/json").body).toBeNull();
  });

  it("leaves the delivery id out when the sender gave none", () => {
    expect(input("x", "text/plain", null)).not.toHaveProperty("deliveryId");
    const query = input("x", "text/plain").query;
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.keys(query)).toContain("__proto__");
  });
});

describe("readLimitedBody", () => {
  it("reads a body within the limit, byte for byte", async () => {
    const bytes = Buffer.from([0, 255, 1, 254]);
    expect(await readLimitedBody(new Request(url, { method: "POST", body: bytes }), 4)).toEqual({ ok: true, body: bytes });
    expect(await readLimitedBody(new Request(url, { method: "POST" }), 4)).toEqual({ ok: true, body: Buffer.alloc(0) });
  });

  it("refuses at once when Content-Length is over the limit", async () => {
    const request = new Request(url, { method: "POST", body: "12345", headers: { "Content-Length": "5" } });
    expect(await readLimitedBody(request, 4)).toEqual({ ok: false, status: 413, reason: expect.stringContaining("Content-Length says 5 bytes") });
  });

  it("refuses a streamed body once it passes the limit, and reads no further", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    const read = await readLimitedBody(request, 2048);
    expect(read).toEqual({ ok: false, status: 413, reason: expect.stringContaining("limit of 2 KB (more than 2048 bytes arrived)") });
    expect(pulled).toBeLessThan(6);
  });
});
