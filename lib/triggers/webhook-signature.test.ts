import { afterEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { verifyDelivery, type WebhookDelivery } from "./webhook-signature";
import { signDelivery } from "./webhook-signing";
import { checkWebhookSecret, newWebhookSecret } from "./webhook-secret";
import { webhookPresets } from "./webhook-presets";

const now = new Date("2026-12-02T06:00:00Z");
const seconds = Math.floor(now.getTime() / 1000);
const body = Buffer.from('{"id":"evt_1","type":"charge.succeeded"}');

function delivery(overrides: Partial<WebhookDelivery> & Pick<WebhookDelivery, "preset" | "secret">, headers: Record<string, string>): WebhookDelivery {
  return { body, headers: new Headers(headers), now, ...overrides };
}

afterEach(() => vi.useRealTimers());

describe("github", () => {
  // GitHub's own example in "Validating webhook deliveries".
  const secret = "It's a Secret to Everybody";
  const hello = Buffer.from("Hello, World!");
  const published = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  it("accepts GitHub's published example and names the delivery by X-GitHub-Delivery", () => {
    const verdict = verifyDelivery(delivery({ preset: "github", secret, body: hello }, { "X-Hub-Signature-256": published, "X-GitHub-Delivery": "72d3162e-cc78" }));
    expect(verdict).toEqual({ ok: true, deliveryId: "72d3162e-cc78" });
    expect(signDelivery({ preset: "github", secret, body: hello, now, deliveryId: "d" })["X-Hub-Signature-256"]).toBe(published);
  });

  it("refuses a missing, malformed or wrong signature, naming the header", () => {
    expect(verifyDelivery(delivery({ preset: "github", secret, body: hello }, {}))).toMatchObject({ ok: false, status: 401, code: "signature-missing", reason: expect.stringContaining("X-Hub-Signature-256") });
    expect(verifyDelivery(delivery({ preset: "github", secret, body: hello }, { "X-Hub-Signature-256": "sha1=abc" }))).toMatchObject({ status: 400, code: "signature-malformed" });
    const tampered = verifyDelivery(delivery({ preset: "github", secret, body: Buffer.from("Hello, World?") }, { "X-Hub-Signature-256": published }));
    expect(tampered).toMatchObject({ ok: false, status: 401, code: "signature-mismatch", reason: expect.stringContaining("X-Hub-Signature-256") });
    expect(verifyDelivery(delivery({ preset: "github", secret: "another", body: hello }, { "X-Hub-Signature-256": published }))).toMatchObject({ code: "signature-mismatch" });
  });

  it("reads upper-case hex and has no delivery id without the header", () => {
    expect(verifyDelivery(delivery({ preset: "github", secret, body: hello }, { "X-Hub-Signature-256": published.toUpperCase().replace("SHA256", "sha256") }))).toEqual({ ok: true, deliveryId: null });
  });
});

describe("stripe", () => {
  const secret = "whsec_stripe_test_secret";
  // Computed with: printf '1700000000.<body>' | openssl dgst -sha256 -hmac "$secret"
  const vector = "fb22ffbfe8f82e398afe03ad6d385a59a0083f46bbd8b0ffad81467124cf7673";
  const signedAt = new Date(1_700_000_000_000);

  it("accepts a signature computed by openssl and names the delivery by the event id", () => {
    const verdict = verifyDelivery(delivery({ preset: "stripe", secret, now: signedAt }, { "Stripe-Signature": `t=1700000000,v1=${vector}` }));
    expect(verdict).toEqual({ ok: true, deliveryId: "evt_1" });
    expect(signDelivery({ preset: "stripe", secret, body, now: signedAt })).toEqual({ "Stripe-Signature": `t=1700000000,v1=${vector}` });
  });

  it("accepts any of several v1 signatures (a secret being rolled) and ignores other schemes", () => {
    const header = `t=1700000000,v1=${"0".repeat(64)},v0=abc,v1=${vector}`;
    expect(verifyDelivery(delivery({ preset: "stripe", secret, now: signedAt }, { "Stripe-Signature": header }))).toEqual({ ok: true, deliveryId: "evt_1" });
  });

  it("refuses a timestamp beyond the tolerance either way, after the signature matched", () => {
    const headers = { "Stripe-Signature": `t=1700000000,v1=${vector}` };
    const late = verifyDelivery(delivery({ preset: "stripe", secret, now: new Date(signedAt.getTime() + 301_000) }, headers));
    expect(late).toMatchObject({ ok: false, status: 401, code: "timestamp-stale", reason: expect.stringMatching(/Stripe-Signature timestamp t=1700000000 is 301 s old, beyond the 300 s tolerance/) });
    expect(verifyDelivery(delivery({ preset: "stripe", secret, now: new Date(signedAt.getTime() + 300_000) }, headers)).ok).toBe(true);
    expect(verifyDelivery(delivery({ preset: "stripe", secret, now: new Date(signedAt.getTime() - 400_000) }, headers))).toMatchObject({ code: "timestamp-stale", reason: expect.stringContaining("in the future") });
    expect(verifyDelivery(delivery({ preset: "stripe", secret, now: new Date(signedAt.getTime() + 500_000), toleranceSeconds: 600 }, headers)).ok).toBe(true);
    const forged = verifyDelivery(delivery({ preset: "stripe", secret: "other", now: new Date(signedAt.getTime() + 301_000) }, headers));
    expect(forged).toMatchObject({ code: "signature-mismatch" });
  });

  it("refuses a header without t or v1, and has no delivery id for a body that is not JSON", () => {
    expect(verifyDelivery(delivery({ preset: "stripe", secret }, { "Stripe-Signature": `v1=${vector}` }))).toMatchObject({ status: 400, code: "signature-malformed" });
    expect(verifyDelivery(delivery({ preset: "stripe", secret }, { "Stripe-Signature": "t=1700000000" }))).toMatchObject({ status: 400, code: "signature-malformed" });
    expect(verifyDelivery(delivery({ preset: "stripe", secret }, {}))).toMatchObject({ status: 401, code: "signature-missing" });
    const text = Buffer.from("plain");
    const signed = signDelivery({ preset: "stripe", secret, body: text, now });
    expect(verifyDelivery(delivery({ preset: "stripe", secret, body: text }, signed))).toEqual({ ok: true, deliveryId: null });
  });
});

describe("standard-webhooks", () => {
  // The example secret of the Standard Webhooks specification.
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const reference = new Webhook(secret);

  it("accepts what the reference library signs, over the raw body", () => {
    const signature = reference.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", now, body.toString());
    const headers = { "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": String(seconds), "webhook-signature": signature };
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, headers))).toEqual({ ok: true, deliveryId: "msg_p5jXN8AQM9LWM0D4loKWxJek" });
  });

  it("accepts a signature computed with openssl, as docs/triggers.md shows the sender", () => {
    const sent = Buffer.from('{"id":"evt_1","action":"opened"}');
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,YN7nOzotOGS0Ia3vYaqURTAKPglZnz0MrVO52nttEuw=" };
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret, body: sent, now: new Date(1_700_000_000_000) }, headers))).toEqual({ ok: true, deliveryId: "msg_1" });
  });

  it("signs what the reference library accepts", () => {
    vi.useFakeTimers({ now });
    const headers = signDelivery({ preset: "standard-webhooks", secret, body, now, deliveryId: "msg_1" });
    expect(reference.verify(body.toString(), headers)).toEqual(JSON.parse(body.toString()));
    expect(() => reference.verify('{"id":"evt_2"}', headers)).toThrow(/No matching signature/);
  });

  it("accepts any signature of a space-separated list and skips other versions", () => {
    const good = signDelivery({ preset: "standard-webhooks", secret, body, now, deliveryId: "msg_1" });
    const headers = { ...good, "webhook-signature": `v1a,c29tZQ== v1,${"A".repeat(44)} ${good["webhook-signature"]}` };
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, headers))).toEqual({ ok: true, deliveryId: "msg_1" });
  });

  it("refuses missing headers by name, a wrong signature, a stale timestamp and a secret that is not base64", () => {
    const good = signDelivery({ preset: "standard-webhooks", secret, body, now, deliveryId: "msg_1" });
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, { "webhook-signature": good["webhook-signature"] }))).toMatchObject({
      status: 401,
      code: "signature-missing",
      reason: "The webhook-id, webhook-timestamp headers are missing.",
    });
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, { ...good, "webhook-id": "msg_2" }))).toMatchObject({ status: 401, code: "signature-mismatch", reason: expect.stringContaining("webhook-signature") });
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, { ...good, "webhook-timestamp": "yesterday" }))).toMatchObject({ status: 400, code: "signature-malformed" });
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret }, { ...good, "webhook-signature": "v2,abc" }))).toMatchObject({ status: 400, code: "signature-malformed" });
    const stale = verifyDelivery(delivery({ preset: "standard-webhooks", secret, now: new Date(now.getTime() + 6 * 60_000) }, good));
    expect(stale).toMatchObject({ status: 401, code: "timestamp-stale", reason: expect.stringContaining("webhook-timestamp") });
    expect(verifyDelivery(delivery({ preset: "standard-webhooks", secret: "whsec_not base64!" }, good))).toMatchObject({ status: 500, code: "secret-unusable" });
  });
});

describe("none", () => {
  it("checks nothing and takes the delivery id from Idempotency-Key, then X-Delivery-Id", () => {
    expect(verifyDelivery(delivery({ preset: "none", secret: "" }, {}))).toEqual({ ok: true, deliveryId: null });
    expect(verifyDelivery(delivery({ preset: "none", secret: "" }, { "X-Delivery-Id": "b", "Idempotency-Key": "a" }))).toEqual({ ok: true, deliveryId: "a" });
    expect(verifyDelivery(delivery({ preset: "none", secret: "" }, { "X-Delivery-Id": "b" }))).toEqual({ ok: true, deliveryId: "b" });
  });

  it("refuses a delivery id too long to store", () => {
    expect(verifyDelivery(delivery({ preset: "none", secret: "" }, { "Idempotency-Key": "k".repeat(257) }))).toMatchObject({ status: 400, code: "delivery-id-invalid" });
  });
});

describe("secrets", () => {
  it("makes a whsec_ secret that signs and verifies under every preset", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newWebhookSecret()).not.toBe(secret);
    for (const preset of webhookPresets) {
      expect(checkWebhookSecret(preset, secret)).toBeNull();
      const headers = signDelivery({ preset, secret, body, now, deliveryId: "d-1" });
      const verdict = verifyDelivery(delivery({ preset, secret }, headers));
      expect(verdict, preset).toEqual({ ok: true, deliveryId: preset === "stripe" ? "evt_1" : "d-1" });
    }
  });

  it("says when a secret cannot serve Standard Webhooks", () => {
    expect(checkWebhookSecret("standard-webhooks", "whsec_%%%")).toMatch(/base64/);
    expect(checkWebhookSecret("github", "")).toMatch(/empty/);
    expect(checkWebhookSecret("github", "anything at all")).toBeNull();
  });
});
