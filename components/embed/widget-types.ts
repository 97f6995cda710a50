/**
 * What the chat widgets' server actions answer (app/actions/chat-widgets.ts)
 * and the widget as the management page shows it. Declared here, beside the
 * component that reads them, so components take the actions as props and
 * never import app/ or the database.
 */
import type { ChatWidgetRecord } from "@/lib/api/chat-api";

export type ChatWidgetView = ChatWidgetRecord;

export type WidgetAnswer = { ok: true; widget: ChatWidgetView; token?: string; message: string } | { ok: false; error: string; field?: "name" | "origins" | "perMinute" | "overallPerMinute" | "widgetId" | "workflowId" };

export interface WidgetForm {
  name: string;
  /** One origin a line (or separated by commas). */
  origins: string;
  perMinute: number | string;
  /** Messages all its visitors together may send a minute. */
  overallPerMinute: number | string;
}
