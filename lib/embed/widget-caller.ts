import "server-only";
import { type ApiCaller, apiError, appBearerLimits, appWidgetVisitorLimits, clientAddress, sameOrigin, trustedProxiesFromEnvironment } from "../auth";
import type { WidgetLimitReached } from "../auth";
import { type ChatWidgetRecord, findChatWidgetByToken, widgetTokenPrefix } from "../db/app";
import { originAllowed } from "./widget-origins";

/** The header the widget's frame sends with the origin of the page it is shown on. */
export const embedParentHeader = "x-embed-parent";
/** The header with the visitor's id (random, kept by the widget). */
export const visitorHeader = "x-visitor-id";

const visitorIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

/** The widget token a request carries (`Authorization: Bearer sbw_…`), or null when it carries none or another kind. */
export function widgetBearer(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match && match[1].startsWith(widgetTokenPrefix) ? match[1] : null;
}

export type WidgetAuthorization = { ok: true; caller: ApiCaller; widget: ChatWidgetRecord; visitorId: string } | { ok: false; response: Response };

/**
 * A chat widget's visitor calling the chat API of `workflowId`: the widget's
 * token (runner rights on its own workflow only), from one of its origins
 * (the host page itself, or the widget's frame on this app's origin saying
 * which page it is shown on; CSP frame-ancestors makes the browser keep that
 * frame off any other page), with a visitor id. Refused: 401 for a wrong or
 * rotated token, 403 for another workflow, a disabled widget or an origin
 * not allowed (the reason named), 400 for a missing visitor id, 429 with
 * Retry-After over the visitor's limit (`countMessage`: a message is sent).
 * The visitor acts as `visitor:<widgetId>:<visitorId>`, a runner: the
 * threads they see are their own.
 */
export async function authorizeWidgetCaller(request: Request, workflowId: string, options: { countMessage: boolean }): Promise<WidgetAuthorization> {
  const token = widgetBearer(request);
  const address = clientAddress(request.headers.get("x-forwarded-for"), trustedProxiesFromEnvironment());
  const wrongTokens = appBearerLimits();
  const wait = await wrongTokens.wait(address);
  if (wait > 0) return { ok: false, response: apiError(429, `Too many wrong tokens from this address; try again in ${wait} seconds.`, { headers: { "Retry-After": String(wait) } }) };
  const widget = token ? await findChatWidgetByToken(token) : null;
  if (!widget) {
    await wrongTokens.failed(address);
    return { ok: false, response: apiError(401, "This chat widget's token is not valid: it may have been rotated. Copy the widget's snippet again from its workflow's Widgets page.", { headers: { "WWW-Authenticate": 'Bearer realm="switchboard-widget"' } }) };
  }
  if (widget.workflowId !== workflowId) return { ok: false, response: apiError(403, `This widget's token may only chat with its own workflow, not "${workflowId}".`) };
  if (!widget.enabled) return { ok: false, response: apiError(403, "This chat widget is turned off by the workflow's owners.") };
  const origin = request.headers.get("origin");
  const parent = request.headers.get(embedParentHeader);
  // A browser sends no Origin on a same-origin GET (the frame reading its threads); Sec-Fetch-Site, which no page can set, says where it came from.
  const fromFrame = origin !== null ? sameOrigin(request) : request.headers.get("sec-fetch-site") === "same-origin";
  const shownOn = fromFrame ? parent : origin;
  if (!originAllowed(widget.origins, shownOn)) {
    const where = shownOn ? `the page ${shownOn}` : origin === null ? "a request without an Origin header (not a web page)" : "a page that did not say its origin";
    return { ok: false, response: apiError(403, `This chat widget may not be used from ${where}: it is allowed on ${widget.origins.join(", ") || "no origin"}.`, { field: "origin" }) };
  }
  const visitorId = request.headers.get(visitorHeader) ?? "";
  if (!visitorIdPattern.test(visitorId)) return { ok: false, response: apiError(400, `Send the visitor's id in the ${visitorHeader} header: 8 to 64 letters, digits, - or _.`, { field: "visitorId" }) };
  if (options.countMessage) {
    const reached = await appWidgetVisitorLimits().take({ widgetId: widget.id, visitorId, address, perMinute: widget.perMinute, overallPerMinute: widget.overallPerMinute });
    if (reached) return { ok: false, response: apiError(429, widgetLimitMessage(widget, reached), { headers: { "Retry-After": String(reached.seconds) } }) };
  }
  return { ok: true, caller: { actor: { id: `visitor:${widget.id}:${visitorId}`, email: `widget ${widget.name}`, role: "runner" }, scope: `widget:${widget.id}` }, widget, visitorId };
}

const messages = (count: number) => `${count} ${count === 1 ? "message" : "messages"}`;

/** What a refused visitor is told (the widget shows it): the limit they are over, by name and number, and how long to wait. */
export function widgetLimitMessage(widget: Pick<ChatWidgetRecord, "perMinute" | "overallPerMinute">, reached: NonNullable<WidgetLimitReached>): string {
  if (reached.limit === "visitor") return `You have sent more than ${messages(widget.perMinute)} in a minute; wait ${reached.seconds} seconds and send again.`;
  return `This chat is busy: its visitors together have sent more than its limit of ${messages(widget.overallPerMinute)} a minute; wait ${reached.seconds} seconds and send again.`;
}
