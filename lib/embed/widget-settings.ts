import { parseWidgetOrigins } from "./widget-origins";

/** The most messages a minute a widget may allow each visitor. */
export const maxPerMinute = 600;
/** The most messages a minute a widget may allow all its visitors together. */
export const maxOverallPerMinute = 6000;

/** A widget's settings as its form sends them (each value unparsed). */
export interface WidgetSettingsInput {
  name?: unknown;
  origins?: unknown;
  perMinute?: unknown;
  overallPerMinute?: unknown;
}

export interface WidgetSettings {
  name: string;
  origins: string[];
  perMinute: number;
  overallPerMinute: number;
}

export type CheckedWidgetSettings = { ok: true; value: WidgetSettings } | { ok: false; error: string; field: "name" | "origins" | "perMinute" | "overallPerMinute" };

/**
 * A widget's name, origins and limits from its form, or what is wrong with
 * the first field that is wrong, named. The widget's limit must allow at
 * least one visitor's.
 *
 * @example checkWidgetSettings({ name: "Shop", origins: "https://shop.example", perMinute: "10", overallPerMinute: "5" })
 * // → { ok: false, field: "overallPerMinute", error: "overallPerMinute: … (5) is fewer than one visitor may send (10) …" }
 */
export function checkWidgetSettings(form: WidgetSettingsInput): CheckedWidgetSettings {
  const name = typeof form?.name === "string" ? form.name.trim() : "";
  if (!name) return { ok: false, error: "name: give the widget a name (where it is shown, for example).", field: "name" };
  if (name.length > 80) return { ok: false, error: "name: at most 80 characters.", field: "name" };
  const origins = parseWidgetOrigins(typeof form.origins === "string" ? form.origins : "");
  if (!origins.ok) return origins;
  const perMinute = wholeNumber(form.perMinute);
  if (perMinute === null || perMinute < 1 || perMinute > maxPerMinute) return { ok: false, error: `perMinute: a whole number of messages a visitor may send a minute, from 1 to ${maxPerMinute}.`, field: "perMinute" };
  const overallPerMinute = wholeNumber(form.overallPerMinute);
  if (overallPerMinute === null || overallPerMinute < 1 || overallPerMinute > maxOverallPerMinute) {
    return { ok: false, error: `overallPerMinute: a whole number of messages all visitors together may send a minute, from 1 to ${maxOverallPerMinute}.`, field: "overallPerMinute" };
  }
  if (overallPerMinute < perMinute) {
    return { ok: false, error: `overallPerMinute: the messages all visitors together may send a minute (${overallPerMinute}) is fewer than one visitor may send (${perMinute}); raise it, or lower the visitor's limit.`, field: "overallPerMinute" };
  }
  return { ok: true, value: { name, origins: origins.origins, perMinute, overallPerMinute } };
}

/** A whole number from a form value (a number, or its digits as text); null for anything else, an empty field included. */
function wholeNumber(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isInteger(number) ? number : null;
}
