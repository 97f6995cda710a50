export { type WaitingNotice, waitingNotice } from "./waiting-notice";
export { sendWaitingWebhook, type WebhookResult, type WebhookSettings, webhookSettingsFromEnvironment } from "./waiting-webhook";
