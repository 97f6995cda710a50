import type { Call } from "../manifest";
import { renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import { type CallContext, type CallReply, executeCall } from "./execute-call";
import type { RequestAdjustments } from "./render-request";
import { renderUrl } from "./render-url";

/** Never more requests than this for one paginated call, whatever `maxPages` says. */
export const pageCapLimit = 1000;

/** What a paginated call answers with. */
export interface PagedReply {
  items: unknown[];
  pages: number;
  /** True when it stopped at `maxPages` or `max` with more pages left. */
  truncated: boolean;
}

type Paginate = NonNullable<Call["paginate"]>;

/**
 * Where the next page is, from the page just read: a cursor, the next page
 * number or offset, a `Link: rel="next"` URL, or nothing (the last page).
 * Pure: the loop below does the requests.
 */
export function nextPage(
  paginate: Paginate,
  page: { number: number; offset: number; cursor: unknown; itemCount: number; size?: number; linkHeader?: string; origin: string },
): { adjust: Omit<RequestAdjustments, "url">; url?: string } | undefined {
  const into = paginate.into ?? defaultInto(paginate.strategy);
  const put = (value: unknown): { adjust: Omit<RequestAdjustments, "url"> } =>
    paginate.in === "body" ? { adjust: { bodyFields: { [into]: value } } } : { adjust: { query: { [into]: String(value) } } };
  switch (paginate.strategy) {
    case "cursor":
      return page.cursor === undefined || page.cursor === null || page.cursor === "" ? undefined : put(page.cursor);
    case "page":
      if (page.itemCount === 0 || (page.size !== undefined && page.itemCount < page.size)) return undefined;
      return put(page.number + 1);
    case "offset":
      if (page.itemCount === 0 || (page.size !== undefined && page.itemCount < page.size)) return undefined;
      return put(page.offset + page.itemCount);
    case "link": {
      const next = linkNext(page.linkHeader);
      if (!next) return undefined;
      let url: URL;
      try {
        url = new URL(next, page.origin);
      } catch {
        return undefined;
      }
      // A Link header is the server's word, not the manifest's: it may not move the call to another host.
      if (url.origin !== page.origin) return undefined;
      return { adjust: {}, url: url.toString() };
    }
  }
}

function defaultInto(strategy: Paginate["strategy"]): string {
  return strategy === "page" ? "page" : strategy === "offset" ? "offset" : "cursor";
}

/** The `rel="next"` target of a Link header (RFC 8288). */
export function linkNext(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(/,(?=\s*<)/)) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (match && /(^|;)\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2])) return match[1];
  }
  return undefined;
}

/**
 * Makes a paginated call: the first request as written, then one per page
 * until the last page, `max` items, or the page cap. Every request goes
 * through executeCall (the URL guard, credentials, retries).
 */
export async function paginateCall(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  const paginate = call.paginate as Paginate;
  const number = async (value: unknown, fallback?: number) => {
    if (value === undefined) return fallback;
    const rendered = Number(await renderValue(value, scope, context.evaluator));
    return Number.isFinite(rendered) ? rendered : fallback;
  };
  const maxPages = Math.min((await number(paginate.maxPages, 50)) ?? 50, pageCapLimit);
  const max = await number(paginate.max);
  const size = await number(paginate.size);
  const start = (await number(paginate.start, paginate.strategy === "page" ? 1 : 0)) ?? 0;
  const items: unknown[] = [];
  let adjust: RequestAdjustments = firstPage(paginate, start, size);
  let pages = 0;
  let last: CallReply | undefined;
  let truncated = false;
  let state = { number: start, offset: paginate.strategy === "offset" ? start : 0 };
  for (;;) {
    last = await executeCall(call, scope, context, undefined, adjust);
    pages += 1;
    const pageItems = await readItems(call, paginate, scope, last, context);
    items.push(...pageItems);
    const cursor = paginate.strategy === "cursor" && paginate.cursor !== undefined ? await evaluate(call, paginate.cursor, { ...scope, response: last.response, status: last.status }, context) : undefined;
    const next = nextPage(paginate, { ...state, cursor, itemCount: pageItems.length, size, linkHeader: last.headers.link, origin: await originOf(call, adjust, scope, context) });
    if (max !== undefined && items.length >= max) {
      truncated = items.length > max || next !== undefined;
      items.length = Math.min(items.length, max);
      break;
    }
    if (!next) break;
    if (pages >= maxPages) {
      truncated = true;
      break;
    }
    state = { number: state.number + 1, offset: state.offset + pageItems.length };
    adjust = mergeAdjust(sizeAdjust(paginate, size), { ...next.adjust, ...(next.url ? { url: next.url } : {}) });
  }
  const reply: PagedReply = { items, pages, truncated };
  return { status: last.status, headers: last.headers, response: reply };
}

function firstPage(paginate: Paginate, start: number, size: number | undefined): RequestAdjustments {
  const adjust = sizeAdjust(paginate, size);
  if (paginate.strategy !== "page" && paginate.strategy !== "offset") return adjust;
  const into = paginate.into ?? defaultInto(paginate.strategy);
  return mergeAdjust(adjust, paginate.in === "body" ? { bodyFields: { [into]: start } } : { query: { [into]: String(start) } });
}

function sizeAdjust(paginate: Paginate, size: number | undefined): RequestAdjustments {
  if (!paginate.sizeInto || size === undefined) return {};
  return paginate.in === "body" ? { bodyFields: { [paginate.sizeInto]: size } } : { query: { [paginate.sizeInto]: String(size) } };
}

async function readItems(call: Call, paginate: Paginate, scope: Record<string, unknown>, reply: CallReply, context: CallContext): Promise<unknown[]> {
  const value = paginate.items === undefined ? reply.response : await evaluate(call, paginate.items, { ...scope, response: reply.response, status: reply.status }, context);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new CallFailure("invalid-reply", `call '${call.name}': paginate.items did not give a list for page`, call.name, reply.status);
  return value;
}

async function evaluate(call: Call, expression: unknown, scope: Record<string, unknown>, context: CallContext): Promise<unknown> {
  try {
    return await renderValue(expression, scope, context.evaluator);
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}': its paginate expression failed: ${(error as Error).message}`, call.name);
  }
}

async function originOf(call: Call, adjust: RequestAdjustments, scope: Record<string, unknown>, context: CallContext): Promise<string> {
  try {
    return adjust.url ? new URL(adjust.url).origin : (await renderUrl(call.url ?? "", scope, context.evaluator)).origin;
  } catch {
    return "null";
  }
}

function mergeAdjust(first: RequestAdjustments, second: RequestAdjustments): RequestAdjustments {
  return {
    ...first,
    ...second,
    ...(first.query || second.query ? { query: { ...first.query, ...second.query } } : {}),
    ...(first.bodyFields || second.bodyFields ? { bodyFields: { ...first.bodyFields, ...second.bodyFields } } : {}),
  };
}
