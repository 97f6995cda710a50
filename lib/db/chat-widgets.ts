import "server-only";
import { randomBytes } from "node:crypto";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { newSecret, secretHash } from "../security";
import type { ChatWidgetRecord } from "../api/chat-api";

export type { ChatWidgetRecord };

/** Widget tokens start with this, so a leaked one is recognised (and never mistaken for a personal token). */
export const widgetTokenPrefix = "sbw_";

type WidgetRow = { id: string; workflowId: string; name: string; origins: string; tokenHint: string; enabled: boolean; perMinute: number; overallPerMinute: number; createdBy: string; createdAt: Date; updatedAt: Date };

function toRecord(row: WidgetRow): ChatWidgetRecord {
  let origins: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.origins);
    if (Array.isArray(parsed)) origins = parsed.filter((origin): origin is string => typeof origin === "string");
  } catch {
    origins = [];
  }
  const { id, workflowId, name, tokenHint, enabled, perMinute, overallPerMinute, createdBy } = row;
  return { id, workflowId, name, origins, tokenHint, enabled, perMinute, overallPerMinute, createdBy, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

const select = { id: true, workflowId: true, name: true, origins: true, tokenHint: true, enabled: true, perMinute: true, overallPerMinute: true, createdBy: true, createdAt: true, updatedAt: true } as const;

/** A new widget and its token (shown once: only its hash is kept). */
export async function createChatWidget(input: { workflowId: string; name: string; origins: string[]; perMinute: number; overallPerMinute?: number; createdBy: string }): Promise<{ widget: ChatWidgetRecord; token: string }> {
  const token = newSecret(widgetTokenPrefix);
  try {
    const row = await prisma().chatWidget.create({
      data: { id: `cw_${randomBytes(12).toString("base64url")}`, workflowId: input.workflowId, name: input.name, origins: JSON.stringify(input.origins), perMinute: input.perMinute, ...(input.overallPerMinute === undefined ? {} : { overallPerMinute: input.overallPerMinute }), createdBy: input.createdBy, tokenHash: secretHash(token), tokenHint: token.slice(-4) },
      select,
    });
    return { widget: toRecord(row), token };
  } catch (error) {
    throw toDatabaseError(error, "create a chat widget");
  }
}

/** The widgets of a workflow, oldest first. */
export async function listChatWidgets(workflowId: string): Promise<ChatWidgetRecord[]> {
  try {
    return (await prisma().chatWidget.findMany({ where: { workflowId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select })).map(toRecord);
  } catch (error) {
    throw toDatabaseError(error, `list the chat widgets of workflow "${workflowId}"`);
  }
}

/** One widget, or null. */
export async function readChatWidget(widgetId: string): Promise<ChatWidgetRecord | null> {
  if (widgetId.length > 100) return null;
  try {
    const row = await prisma().chatWidget.findUnique({ where: { id: widgetId }, select });
    return row ? toRecord(row) : null;
  } catch (error) {
    throw toDatabaseError(error, `read chat widget "${widgetId}"`);
  }
}

/** The widget a token belongs to, or null (unknown, or rotated away). */
export async function findChatWidgetByToken(token: string): Promise<ChatWidgetRecord | null> {
  if (!token.startsWith(widgetTokenPrefix) || token.length > 200) return null;
  try {
    const row = await prisma().chatWidget.findUnique({ where: { tokenHash: secretHash(token) }, select });
    return row ? toRecord(row) : null;
  } catch (error) {
    throw toDatabaseError(error, "find a chat widget by its token");
  }
}

/** Changes a widget's name, origins, limit or enabled flag. */
export async function updateChatWidget(widgetId: string, change: { name?: string; origins?: string[]; perMinute?: number; overallPerMinute?: number; enabled?: boolean }): Promise<ChatWidgetRecord> {
  try {
    const { origins, ...rest } = change;
    return toRecord(await prisma().chatWidget.update({ where: { id: widgetId }, data: { ...rest, ...(origins ? { origins: JSON.stringify(origins) } : {}) }, select }));
  } catch (error) {
    throw toDatabaseError(error, `change chat widget "${widgetId}"`);
  }
}

/** A new token for the widget; the old one stops working at once. */
export async function rotateChatWidgetToken(widgetId: string): Promise<{ widget: ChatWidgetRecord; token: string }> {
  const token = newSecret(widgetTokenPrefix);
  try {
    const row = await prisma().chatWidget.update({ where: { id: widgetId }, data: { tokenHash: secretHash(token), tokenHint: token.slice(-4) }, select });
    return { widget: toRecord(row), token };
  } catch (error) {
    throw toDatabaseError(error, `rotate the token of chat widget "${widgetId}"`);
  }
}

/** Deletes a widget; its visitors' threads stay, unlinked. */
export async function deleteChatWidget(widgetId: string): Promise<void> {
  try {
    await prisma().chatWidget.delete({ where: { id: widgetId } });
  } catch (error) {
    throw toDatabaseError(error, `delete chat widget "${widgetId}"`);
  }
}

/** A widget visitor's threads, listed for the workflow's owners and editors: latest first. */
export async function listWidgetThreads(widgetId: string): Promise<Array<{ id: string; title: string; ownerId: string; updatedAt: string; turns: number }>> {
  try {
    const rows = await prisma().chatThread.findMany({ where: { widgetId }, orderBy: [{ updatedAt: "desc" }, { id: "asc" }], take: 200, select: { id: true, title: true, ownerId: true, updatedAt: true, _count: { select: { runs: true } } } });
    return rows.map((row) => ({ id: row.id, title: row.title, ownerId: row.ownerId, updatedAt: row.updatedAt.toISOString(), turns: row._count.runs }));
  } catch (error) {
    throw toDatabaseError(error, `list the threads of chat widget "${widgetId}"`);
  }
}
