"use server";

import { requireRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow, createChatWidget, deleteChatWidget, readChatWidget, rotateChatWidgetToken, updateChatWidget } from "@/lib/db/app";
import { checkWidgetSettings } from "@/lib/embed/widget-settings";
import { chatInputField } from "@/lib/graph";
import type { WidgetAnswer, WidgetForm } from "@/components/embed/widget-types";

export type { WidgetAnswer, WidgetForm };

function failure(error: unknown, what: string): WidgetAnswer {
  if (error instanceof DatabaseError) return { ok: false, error: `The widget could not be ${what}: ${error.message}` };
  console.error(`The chat widget could not be ${what}:`, error);
  return { ok: false, error: `The widget could not be ${what} because of an error on our side; the server log has the details.` };
}

/** Publishes a workflow as a chat widget (editors and owners); answers its token once. */
export async function createWidgetAction(workflowId: string, form: WidgetForm): Promise<WidgetAnswer> {
  const actor = await requireRole("editor");
  const checked = checkWidgetSettings(form);
  if (!checked.ok) return checked;
  try {
    const workflow = typeof workflowId === "string" ? await getWorkflow(workflowId) : null;
    if (!workflow) return { ok: false, error: `There is no workflow "${String(workflowId)}".`, field: "workflowId" };
    if (!chatInputField(workflow.document)) return { ok: false, error: "This workflow cannot be chatted with: its Start needs a text input field and to be run by hand.", field: "workflowId" };
    const { widget, token } = await createChatWidget({ workflowId, ...checked.value, createdBy: actor.email });
    return { ok: true, widget, token, message: `Widget "${widget.name}" created. Copy its snippet now: the token in it is shown once.` };
  } catch (error) {
    return failure(error, "created");
  }
}

/** Changes a widget's name, origins and limit (editors and owners). */
export async function updateWidgetAction(widgetId: string, form: WidgetForm): Promise<WidgetAnswer> {
  await requireRole("editor");
  const checked = checkWidgetSettings(form);
  if (!checked.ok) return checked;
  try {
    if (!(await readChatWidget(String(widgetId)))) return { ok: false, error: `There is no chat widget "${String(widgetId)}".`, field: "widgetId" };
    const widget = await updateChatWidget(widgetId, checked.value);
    return { ok: true, widget, message: `Widget "${widget.name}" saved.` };
  } catch (error) {
    return failure(error, "saved");
  }
}

/** Turns a widget on or off (editors and owners): off, its frame and its chat calls are refused. */
export async function setWidgetEnabledAction(widgetId: string, enabled: boolean): Promise<WidgetAnswer> {
  await requireRole("editor");
  if (typeof enabled !== "boolean") return { ok: false, error: "enabled must be true or false." };
  try {
    if (!(await readChatWidget(String(widgetId)))) return { ok: false, error: `There is no chat widget "${String(widgetId)}".`, field: "widgetId" };
    const widget = await updateChatWidget(widgetId, { enabled });
    return { ok: true, widget, message: enabled ? `Widget "${widget.name}" turned on.` : `Widget "${widget.name}" turned off: its frame and its messages are refused.` };
  } catch (error) {
    return failure(error, enabled ? "turned on" : "turned off");
  }
}

/** A new token for a widget (editors and owners): the old one stops working at once; the snippet must be copied again. */
export async function rotateWidgetAction(widgetId: string): Promise<WidgetAnswer> {
  await requireRole("editor");
  try {
    if (!(await readChatWidget(String(widgetId)))) return { ok: false, error: `There is no chat widget "${String(widgetId)}".`, field: "widgetId" };
    const { widget, token } = await rotateChatWidgetToken(widgetId);
    return { ok: true, widget, token, message: `Widget "${widget.name}" has a new token; the old one is refused from now on. Copy the new snippet: it is shown once.` };
  } catch (error) {
    return failure(error, "given a new token");
  }
}

/** Deletes a widget (owners): its visitors' threads and runs stay. */
export async function deleteWidgetAction(widgetId: string): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  await requireRole("owner");
  try {
    const widget = await readChatWidget(String(widgetId));
    if (!widget) return { ok: false, error: `There is no chat widget "${String(widgetId)}".` };
    await deleteChatWidget(widgetId);
    return { ok: true, message: `Widget "${widget.name}" deleted.` };
  } catch (error) {
    const answer = failure(error, "deleted");
    return answer.ok ? { ok: true, message: answer.message } : { ok: false, error: answer.error };
  }
}
