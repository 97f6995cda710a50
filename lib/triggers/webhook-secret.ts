import { randomBytes } from "node:crypto";
import { secretPrefix, type WebhookPreset } from "./webhook-presets";

/**
 * A new signing secret: `whsec_` and the base64 of 24 random bytes. One
 * secret serves every preset: GitHub and Stripe use the whole string as the
 * HMAC key, Standard Webhooks the bytes its base64 part decodes to.
 */
export function newWebhookSecret(): string {
  return secretPrefix + randomBytes(24).toString("base64");
}

const base64Text = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The Standard Webhooks key of a secret: the base64 after `whsec_` (or the
 * whole secret when it has no prefix), decoded; null when that is not
 * base64 or is empty. Decoded strictly: Node's own decoder skips stray
 * characters, which would turn a mistyped secret into a different key.
 */
export function standardWebhooksKey(secret: string): Buffer | null {
  const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret;
  if (encoded === "" || !base64Text.test(encoded)) return null;
  return Buffer.from(encoded, "base64");
}

/** What is wrong with a secret for a preset, in words, or null when it can sign. */
export function checkWebhookSecret(preset: WebhookPreset, secret: string): string | null {
  if (preset === "none") return null;
  if (secret === "") return "The secret is empty; make a new one.";
  if (preset === "standard-webhooks" && !standardWebhooksKey(secret)) {
    return "A Standard Webhooks secret must be whsec_ followed by base64 (as the sender shows it); this one does not decode.";
  }
  return null;
}
