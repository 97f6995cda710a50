// lib/triggers: the pure kernels of the ways the world starts a run (webhook deliveries, schedules).
// It imports nothing of ours but lib/graph; the routes, the database and the run service use it.
// Server code: the webhook files use node:crypto. schedule.ts alone is browser-safe, and the inspector imports it directly.
export { webhookPresets, defaultToleranceSeconds, presetHeaders, type WebhookPreset } from "./webhook-presets";
export { verifyDelivery, maxDeliveryIdLength, type WebhookDelivery, type DeliveryVerdict, type DeliveryRefusal, type RefusalCode } from "./webhook-signature";
export { signDelivery, type DeliveryToSign } from "./webhook-signing";
export { newWebhookSecret, checkWebhookSecret } from "./webhook-secret";
export { redactHeaders, redacted } from "./redact-headers";
export { readLimitedBody, type LimitedBody } from "./limited-body";
export { webhookStartInput, type ReceivedDelivery, type WebhookStartInput } from "./webhook-input";
export { checkSchedule, isTimeZone, missedTickPolicies, type MissedTickPolicy, type Schedule } from "../graph";
export { nextFireTimes, nextTick, dueTick, defaultTickGraceMs, type TickState } from "./schedule";
export { ScheduleTicker, type ScheduledTrigger, type TickerPorts, type TickerOptions } from "./schedule-ticker";
