import { hmacSha256, sameText } from "./hmac";
import { defaultToleranceSeconds, presetHeaders, type WebhookPreset } from "./webhook-presets";
import { standardWebhooksKey } from "./webhook-secret";

/** One webhook request as it arrived: the raw body, exactly as sent, and its headers. */
export interface WebhookDelivery {
  preset: WebhookPreset;
  /** The trigger's stored secret (unused by `none`). */
  secret: string;
  body: Uint8Array;
  headers: Headers;
  now: Date;
  /** How far a signed timestamp may be from `now`; 300 s unless given. */
  toleranceSeconds?: number;
}

export type RefusalCode = "signature-missing" | "signature-malformed" | "signature-mismatch" | "timestamp-stale" | "delivery-id-invalid" | "secret-unusable";

/** Why a delivery was refused: the status to answer, a stable code, and a reason naming the header. */
export interface DeliveryRefusal {
  ok: false;
  /** 400: the request is malformed; 401: it is not proven to come from the sender; 500: the stored secret cannot sign (ours to fix). */
  status: 400 | 401 | 500;
  code: RefusalCode;
  reason: string;
}

/** A delivery's verdict: accepted with its delivery id (null when the sender gives none), or refused. */
export type DeliveryVerdict = { ok: true; deliveryId: string | null } | DeliveryRefusal;

/** Longer delivery ids are refused: they are stored and compared, and no sender needs more. */
export const maxDeliveryIdLength = 256;

/**
 * Checks that a delivery comes from the holder of the secret, by the
 * preset's header style, and names its delivery id (the key that makes a
 * replay or a provider's retry start nothing new). Signatures are compared
 * in constant time; a timestamp further than the tolerance from `now`, either
 * way, is refused after the signature matched, so the reason tells a replay
 * from a forgery.
 *
 * @example
 * const verdict = verifyDelivery({ preset: "github", secret, body, headers: request.headers, now: new Date() });
 * if (!verdict.ok) return Response.json({ error: verdict.reason }, { status: verdict.status });
 */
export function verifyDelivery(delivery: WebhookDelivery): DeliveryVerdict {
  const verdict = checkSignature(delivery);
  if (!verdict.ok || verdict.deliveryId === null || verdict.deliveryId.length <= maxDeliveryIdLength) return verdict;
  return refuse(400, "delivery-id-invalid", `The delivery id is ${verdict.deliveryId.length} characters long; at most ${maxDeliveryIdLength} are accepted.`);
}

function checkSignature(delivery: WebhookDelivery): DeliveryVerdict {
  switch (delivery.preset) {
    case "github":
      return checkGithub(delivery);
    case "stripe":
      return checkStripe(delivery);
    case "standard-webhooks":
      return checkStandardWebhooks(delivery);
    case "none":
      return { ok: true, deliveryId: firstHeader(delivery.headers, presetHeaders.none.deliveryIds) };
  }
}

function checkGithub({ secret, body, headers }: WebhookDelivery): DeliveryVerdict {
  const name = presetHeaders.github.signature;
  const header = headers.get(name)?.trim();
  if (!header) return refuse(401, "signature-missing", `The ${name} header is missing; GitHub sends it when the webhook has a secret: set this trigger's secret there.`);
  const presented = /^sha256=([0-9a-fA-F]{64})$/.exec(header)?.[1];
  if (!presented) return refuse(400, "signature-malformed", `The ${name} header must read sha256= and 64 hex digits.`);
  if (!sameText(presented.toLowerCase(), hmacSha256(secret, body).toString("hex"))) {
    return refuse(401, "signature-mismatch", `The ${name} signature does not match the body under this trigger's secret.`);
  }
  return { ok: true, deliveryId: firstHeader(headers, [presetHeaders.github.deliveryId]) };
}

function checkStripe({ secret, body, headers, now, toleranceSeconds }: WebhookDelivery): DeliveryVerdict {
  const name = presetHeaders.stripe.signature;
  const header = headers.get(name)?.trim();
  if (!header) return refuse(401, "signature-missing", `The ${name} header is missing.`);
  const pairs = header.split(",").map((pair) => pair.trim().split("=", 2) as [string, string | undefined]);
  const timestamp = pairs.find(([key]) => key === "t")?.[1];
  const signatures = pairs.filter(([key, value]) => key === "v1" && value).map(([, value]) => value!.toLowerCase());
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) {
    return refuse(400, "signature-malformed", `The ${name} header must read t=<unix seconds>,v1=<hex signature>.`);
  }
  const expected = hmacSha256(secret, `${timestamp}.`, body).toString("hex");
  if (!anyMatches(signatures, expected)) return refuse(401, "signature-mismatch", `No v1 signature in the ${name} header matches the body under this trigger's secret.`);
  return staleness(`The ${name} timestamp t=${timestamp}`, Number(timestamp), now, toleranceSeconds) ?? { ok: true, deliveryId: jsonEventId(body) };
}

function checkStandardWebhooks({ secret, body, headers, now, toleranceSeconds }: WebhookDelivery): DeliveryVerdict {
  const names = presetHeaders["standard-webhooks"];
  const [id, timestamp, signature] = [names.id, names.timestamp, names.signature].map((name) => headers.get(name)?.trim() ?? "");
  const missing = [[names.id, id], [names.timestamp, timestamp], [names.signature, signature]].filter(([, value]) => !value).map(([name]) => name);
  if (missing.length > 0) return refuse(401, "signature-missing", `The ${missing.join(", ")} header${missing.length > 1 ? "s are" : " is"} missing.`);
  if (!/^\d+$/.test(timestamp)) return refuse(400, "signature-malformed", `The ${names.timestamp} header must be unix seconds, not "${timestamp.slice(0, 40)}".`);
  const signatures = signature.split(" ").filter((entry) => entry.startsWith("v1,")).map((entry) => entry.slice(3));
  if (signatures.length === 0) return refuse(400, "signature-malformed", `The ${names.signature} header holds no v1,<base64> signature.`);
  const key = standardWebhooksKey(secret);
  if (!key) return refuse(500, "secret-unusable", "This trigger's secret is not whsec_ and base64, so it cannot check Standard Webhooks signatures; make a new one.");
  const expected = hmacSha256(key, `${id}.${timestamp}.`, body).toString("base64");
  if (!anyMatches(signatures, expected)) return refuse(401, "signature-mismatch", `No v1 signature in the ${names.signature} header matches the body under this trigger's secret.`);
  return staleness(`The ${names.timestamp} ${timestamp}`, Number(timestamp), now, toleranceSeconds) ?? { ok: true, deliveryId: id };
}

/** Every candidate is compared (each in constant time), so the time taken does not say which one matched. */
function anyMatches(presented: readonly string[], expected: string): boolean {
  return presented.map((candidate) => sameText(candidate, expected)).includes(true);
}

function staleness(what: string, signedSeconds: number, now: Date, toleranceSeconds = defaultToleranceSeconds): DeliveryRefusal | null {
  const age = Math.floor(now.getTime() / 1000) - signedSeconds;
  if (Math.abs(age) <= toleranceSeconds) return null;
  const distance = age > 0 ? `${age} s old` : `${-age} s in the future`;
  return refuse(401, "timestamp-stale", `${what} is ${distance}, beyond the ${toleranceSeconds} s tolerance: a replayed delivery, or the sender's clock is off.`);
}

/** Stripe names an event by the `id` of its JSON body; its retries keep it. */
function jsonEventId(body: Uint8Array): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
    const id = typeof parsed === "object" && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === "string" && id !== "" ? id : null;
  } catch {
    return null;
  }
}

function firstHeader(headers: Headers, names: readonly string[]): string | null {
  for (const name of names) {
    const value = headers.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

function refuse(status: DeliveryRefusal["status"], code: RefusalCode, reason: string): DeliveryRefusal {
  return { ok: false, status, code, reason };
}
