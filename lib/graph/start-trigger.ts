import { z } from "zod";
import { type EntryField, fieldPorts, inputFieldList, readFields } from "./input-fields";
import type { ConfigIssue, NodePorts } from "./node-type-info";
import { checkSchedule, missedTickPolicies, type Schedule } from "./schedule-check";

/**
 * How a workflow's Start is started: by hand (the canvas, the CLI, the API,
 * with the input fields), by a webhook delivery, or on a schedule. The
 * trigger decides the Start's outputs, which are also the fields a run's
 * input is checked against (startFields). The settings of every trigger sit
 * flat in the Start's config; the inspector shows each trigger's own
 * (`ui:dependencies`), and the ones of other triggers are kept but unused.
 */
export const startTriggers = ["manual", "webhook", "schedule"] as const;
export type StartTrigger = (typeof startTriggers)[number];

/** How a webhook delivery proves it comes from the sender (see docs/triggers.md). */
export const webhookSignatures = ["standard-webhooks", "github", "stripe", "none"] as const;
export type WebhookSignature = (typeof webhookSignatures)[number];

/** When the webhook is answered: 202 with the run id at once, or the End's outputs when the run is done. */
export const webhookResponses = ["at-once", "when-done"] as const;

const onWebhook = { "ui:dependencies": { trigger: "webhook" } };
const onSchedule = { "ui:dependencies": { trigger: "schedule" } };

export const startConfig = z.strictObject({
  trigger: z.enum(startTriggers).default("manual").meta({
    title: "Starts",
    description: "By hand (the canvas, the command line, the API), when a webhook delivery arrives, or on a schedule.",
    enumNames: ["By hand or API", "On webhook", "On schedule"],
  }),
  inputs: inputFieldList.meta({ title: "Input fields", description: "What a run takes; each field becomes an output of this node.", "ui:dependencies": { trigger: "manual" } }),
  signature: z.enum(webhookSignatures).default("standard-webhooks").meta({
    title: "Webhook signature",
    description: "How a delivery proves it is from the sender: an HMAC-SHA256 of the body with this trigger's secret, in the header style of the sender. None checks nothing: anyone with the URL starts runs.",
    enumNames: ["Standard Webhooks (webhook-signature)", "GitHub (X-Hub-Signature-256)", "Stripe (Stripe-Signature)", "None: anyone with the URL"],
    ...onWebhook,
  }),
  respond: z.enum(webhookResponses).default("at-once").meta({
    title: "Webhook answer",
    description: "At once: 202 with the run's id. When done: waits for the run, up to the timeout, and answers the End's outputs.",
    enumNames: ["At once (202 with the run id)", "When the run is done"],
    ...onWebhook,
  }),
  respondTimeoutSeconds: z.number().int().min(1).max(300).default(30).meta({
    title: "Webhook answer timeout (seconds)",
    description: "How long a \"when done\" answer waits for the run before answering 202 with the run id.",
    ...onWebhook,
  }),
  maxBodyKilobytes: z.number().int().min(1).max(10_240).default(1024).meta({
    title: "Webhook largest body (KB)",
    description: "A larger delivery is refused with 413 and starts nothing.",
    ...onWebhook,
  }),
  cron: z.string().optional().meta({
    title: "Cron expression",
    description: "5 fields (minute hour day month weekday) or 6 with seconds first, e.g. 0 9 * * 1-5 (weekdays at 9:00) or */30 * * * * * (every 30 seconds). Leave empty to use every N minutes.",
    "ui:placeholder": "0 9 * * 1-5",
    ...onSchedule,
  }),
  everyMinutes: z.number().int().min(1).optional().meta({
    title: "Every N minutes",
    description: "Instead of a cron expression: every N minutes, aligned to the clock in the time zone (every 15: at :00, :15, :30, :45).",
    ...onSchedule,
  }),
  timezone: z.string().default("UTC").meta({ title: "Time zone", description: "The IANA time zone the schedule reads its clock in, e.g. Europe/Berlin.", ...onSchedule }),
  missed: z.enum(missedTickPolicies).default("run-latest").meta({
    title: "Missed ticks",
    description: "When ticks were missed while nothing ran: run the latest of them once, or skip them all and wait for the next.",
    enumNames: ["Run the latest once", "Skip them"],
    ...onSchedule,
  }),
});
export type StartConfig = z.infer<typeof startConfig>;

/** The inspector's order of the Start's settings. */
export const startSettingsOrder = ["trigger", "inputs", "signature", "respond", "respondTimeoutSeconds", "maxBodyKilobytes", "cron", "everyMinutes", "timezone", "missed"];

const webhookFields: readonly EntryField[] = [
  { name: "body", type: "any", description: "The delivery's body: parsed JSON for a JSON content type, an object for a form, else the text.", required: false },
  { name: "headers", type: "object", description: "The delivery's headers, lower-case, with secrets (Authorization, cookies, signatures, tokens) redacted.", required: false },
  { name: "query", type: "object", description: "The webhook URL's query parameters.", required: false },
  { name: "deliveryId", type: "string", description: "The sender's id for the delivery, when it gives one: the same delivery never starts two runs.", required: false },
];

const scheduleFields: readonly EntryField[] = [{ name: "tick", type: "string", description: "The scheduled time of this run (ISO 8601, UTC), not the moment it started.", required: false }];

/** The trigger of a Start's config; manual when unset or unknown. */
export function startTrigger(config: Record<string, unknown>): StartTrigger {
  return startTriggers.find((trigger) => trigger === config.trigger) ?? "manual";
}

/**
 * The fields a Start puts out and a run's input is checked against, for its
 * trigger: the input fields by hand; body, headers, query and deliveryId on
 * a webhook; tick on a schedule.
 */
export function startFields(config: Record<string, unknown>): EntryField[] {
  const trigger = startTrigger(config);
  if (trigger === "webhook") return [...webhookFields];
  if (trigger === "schedule") return [...scheduleFields];
  return readFields(config.inputs);
}

export function startPorts(config: Record<string, unknown>): NodePorts {
  return { inputs: [], outputs: fieldPorts(startFields(config)) };
}

/** A schedule Start's schedule, read from its flat settings; null for other triggers. */
export function startSchedule(config: Record<string, unknown>): Schedule | null {
  if (startTrigger(config) !== "schedule") return null;
  const schedule: Schedule = { timezone: String(config.timezone ?? "UTC"), missed: (config.missed ?? "run-latest") as Schedule["missed"] };
  if (typeof config.cron === "string" && config.cron.trim() !== "") schedule.cron = config.cron;
  if (config.everyMinutes !== undefined) schedule.everyMinutes = config.everyMinutes as number;
  return schedule;
}

/** What the Start's schedule gets wrong beyond its settings' types: the cron expression, the time zone, one of cron or every N minutes. */
export function startScheduleIssues(config: Record<string, unknown>): ConfigIssue[] {
  const schedule = startSchedule(config);
  return schedule ? checkSchedule(schedule) : [];
}
