import { allowedPrivateOrigins, guardedFetch, type UrlGuardOptions } from "../security";
import type { WaitingNotice } from "./waiting-notice";

/** Where notices go, from the environment: SWITCHBOARD_APPROVAL_WEBHOOK_URL, and the app's address for the links. */
export interface WebhookSettings extends UrlGuardOptions {
  url: string;
  appUrl: string;
  timeoutMs?: number;
}

/** The webhook settings, or null when no webhook URL is set (notices are optional). */
export function webhookSettingsFromEnvironment(environment: Record<string, string | undefined> = process.env): WebhookSettings | null {
  const url = environment.SWITCHBOARD_APPROVAL_WEBHOOK_URL?.trim();
  if (!url) return null;
  return { url, appUrl: environment.SWITCHBOARD_APP_URL?.trim() || "http://localhost:3000", allowedOrigins: allowedPrivateOrigins(environment) };
}

export type WebhookResult = { ok: true; status: number } | { ok: false; error: string };

/**
 * POSTs one notice as JSON through the guarded fetch (private and metadata
 * addresses refused, redirects checked). Never throws: a refusal, a network
 * error, a timeout or a non-2xx answer is a result the caller logs. The
 * error names the webhook's origin only: its path may hold a token.
 */
export async function sendWaitingWebhook(settings: WebhookSettings, notice: WaitingNotice): Promise<WebhookResult> {
  const origin = originOf(settings.url);
  try {
    const response = await guardedFetch(settings.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Switchboard approvals" },
      body: JSON.stringify(notice),
      signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      allowedOrigins: settings.allowedOrigins,
    });
    response.body.resume();
    if (response.status < 200 || response.status >= 300) return { ok: false, error: `the approval webhook at ${origin} answered HTTP ${response.status}` };
    return { ok: true, status: response.status };
  } catch (error) {
    return { ok: false, error: `the approval webhook at ${origin} was not reached: ${(error as Error).message.split("\n")[0]}` };
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(not a URL)";
  }
}
