import { type WebhookSignature, webhookSignatures } from "../graph";

/**
 * How a webhook sender proves a delivery is theirs. Each preset names a
 * header style; all but `none` are an HMAC-SHA256 over the raw body with the
 * trigger's stored secret (see docs/triggers.md). The Start's `signature`
 * setting chooses one.
 */
export const webhookPresets = webhookSignatures;
export type WebhookPreset = WebhookSignature;

/** How far a signed timestamp may be from now (Stripe's and Standard Webhooks' default). */
export const defaultToleranceSeconds = 300;

/** The prefix of a secret made by newWebhookSecret, and of Standard Webhooks secrets. */
export const secretPrefix = "whsec_";

/** The headers each preset reads, as a sender writes them. */
export const presetHeaders = {
  github: { signature: "X-Hub-Signature-256", deliveryId: "X-GitHub-Delivery" },
  stripe: { signature: "Stripe-Signature" },
  "standard-webhooks": { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" },
  none: { deliveryIds: ["Idempotency-Key", "X-Delivery-Id"] },
} as const;
