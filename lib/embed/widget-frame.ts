import { prisma } from "../db/app";
import { frameAncestors } from "./widget-origins";

/** The CSP frame-ancestors of a widget's frame: its origins when it exists and is on, else 'none' (a database that cannot be read: 'none'). */
export async function widgetFrameAncestors(widgetId: string): Promise<string> {
  if (!widgetId || widgetId.length > 100) return frameAncestors([]);
  try {
    const row = await prisma().chatWidget.findUnique({ where: { id: widgetId }, select: { origins: true, enabled: true } });
    const origins: unknown = row?.enabled ? JSON.parse(row.origins) : [];
    return frameAncestors(Array.isArray(origins) ? origins.filter((origin): origin is string => typeof origin === "string") : []);
  } catch (error) {
    console.error(`The frame-ancestors of chat widget "${widgetId}" could not be read:`, error);
    return frameAncestors([]);
  }
}
