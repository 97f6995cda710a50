import { randomUUID } from "node:crypto";
import { hmacSha256 } from "./hmac";
import { presetHeaders, type WebhookPreset } from "./webhook-presets";
import { standardWebhooksKey } from "./webhook-secret";

export interface DeliveryToSign {
  preset: WebhookPreset;
  secret: string;
  body: string | Uint8Array;
  now: Date;
  /** The id GitHub, Standard Webhooks and `none` carry in a header; a new one when left out. Stripe's is the body's `id`. */
  deliveryId?: string;
}

/**
 * The headers a sender adds to a delivery, signed as the preset's provider
 * signs: what GitHub, Stripe or a Standard Webhooks sender does. For tests,
 * the benchmark and the curl lines of docs/triggers.md; signing needs the
 * secret, so this gives nothing away.
 *
 * @example
 * const headers = signDelivery({ preset: "github", secret, body, now: new Date() });
 * await fetch(url, { method: "POST", body, headers: { ...headers, "Content-Type": "application/json" } });
 */
export function signDelivery({ preset, secret, body, now, deliveryId = `msg_${randomUUID()}` }: DeliveryToSign): Record<string, string> {
  const seconds = String(Math.floor(now.getTime() / 1000));
  switch (preset) {
    case "github":
      return {
        [presetHeaders.github.signature]: `sha256=${hmacSha256(secret, body).toString("hex")}`,
        [presetHeaders.github.deliveryId]: deliveryId,
      };
    case "stripe":
      return { [presetHeaders.stripe.signature]: `t=${seconds},v1=${hmacSha256(secret, `${seconds}.`, body).toString("hex")}` };
    case "standard-webhooks": {
      const key = standardWebhooksKey(secret);
      if (!key) throw new Error("A Standard Webhooks secret must be whsec_ followed by base64.");
      const names = presetHeaders["standard-webhooks"];
      const signature = hmacSha256(key, `${deliveryId}.${seconds}.`, body).toString("base64");
      return { [names.id]: deliveryId, [names.timestamp]: seconds, [names.signature]: `v1,${signature}` };
    }
    case "none":
      return { [presetHeaders.none.deliveryIds[0]]: deliveryId };
  }
}
