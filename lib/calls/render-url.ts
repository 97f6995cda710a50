import { expressionUrl } from "../manifest";
import { type Evaluator, insertedText, lookupPath, renderValue } from "../sandbox";
import { parseTemplate, type TemplatePart } from "../sandbox/template-syntax";

/**
 * Renders a call's URL so that templates can never move it to another host:
 * the scheme and host come from the literal start or a leading
 * `{{ config.<name> }}`; values inserted after it are encoded (path values
 * segment by segment, keeping their `/`; query values whole), `.` and `..`
 * segments are refused, and the result must keep the origin it started with.
 *
 * A `return` expression is run only when it starts with its literal origin
 * (`return 'https://api.example.com/' + …`), and its result must keep it.
 *
 * @example await renderUrl("{{ config.apiUrl }}/repos/{{ params.repo }}", scope) // "https://api.github.com/repos/a%20b"
 */
export async function renderUrl(template: string, scope: Record<string, unknown>, evaluator?: Evaluator): Promise<URL> {
  const parsed = parseTemplate(template);
  if (parsed.kind === "expression") return renderUrlExpression(template, scope, evaluator);
  const parts: TemplatePart[] = parsed.kind === "literal" ? [{ kind: "text", text: parsed.text }] : parsed.kind === "whole" ? [{ kind: "path", path: parsed.path }] : parsed.parts;
  const [first, ...others] = parts;
  let rest = others;
  let base: string;
  if (first.kind === "path") {
    if (first.path.segments[0] !== "config") throw new Error(`the URL's host cannot come from {{ ${first.path.text} }}`);
    base = insertedText(lookupPath(scope, first.path.segments)).replace(/\/+$/, "");
  } else if (/^https?:\/\/$/i.test(first.text) && rest[0]?.kind === "path") {
    const [hostPart, ...after] = rest;
    if (hostPart.kind !== "path" || hostPart.path.segments[0] !== "config") throw new Error("the URL's host can only come from the node's config");
    const host = insertedText(lookupPath(scope, hostPart.path.segments));
    if (!/^([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) {
      throw new Error(`config.${hostPart.path.segments[1]} must be a bare host name (with an optional port), not '${host.slice(0, 100)}'`);
    }
    base = `${first.text}${host}`;
    rest = after;
  } else {
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(first.text)?.[0] ?? first.text;
    base = origin;
    if (origin.length < first.text.length) rest = [{ kind: "text", text: first.text.slice(origin.length) }, ...rest];
  }
  let origin: string;
  try {
    origin = new URL(base).origin;
  } catch {
    throw new Error(`the URL's base '${base}' is not an absolute http(s) URL`);
  }
  let text = base;
  let inQuery = base.includes("?");
  for (const part of rest) {
    if (part.kind === "text") {
      text += part.text;
      if (part.text.includes("?") || part.text.includes("#")) inQuery = true;
      continue;
    }
    const value = insertedText(lookupPath(scope, part.path.segments));
    text += inQuery ? encodeURIComponent(value) : encodePath(value, part.path.text);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`the rendered URL is not valid: a value inserted after ${origin} broke its host part`);
  }
  if (url.origin !== origin) throw new Error(`the rendered URL left its origin ${origin}`);
  return url;
}

async function renderUrlExpression(source: string, scope: Record<string, unknown>, evaluator: Evaluator | undefined): Promise<URL> {
  const shape = expressionUrl(source);
  if (!shape) throw new Error("a `return` URL expression must start with its literal origin, e.g. return 'https://api.example.com/' + …, or take its host from config");
  const origin = expectedOrigin(shape, scope);
  if (!evaluator) throw new Error("a `return` URL expression needs the sandbox");
  const value = await renderValue(source, scope, evaluator);
  if (typeof value !== "string") throw new Error("the URL expression did not give a string");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error("the URL expression gave a string that is not a URL");
  }
  if (url.origin !== origin) throw new Error(`the rendered URL left its origin ${origin}`);
  return url;
}

/** The origin an expression URL must keep: its literal one, or the one the node's config gives. */
function expectedOrigin(shape: NonNullable<ReturnType<typeof expressionUrl>>, scope: Record<string, unknown>): string {
  if (shape.kind === "literal") return shape.origin;
  const value = insertedText(lookupPath(scope, ["config", shape.name]));
  if (shape.kind === "config-base") {
    try {
      return new URL(value).origin;
    } catch {
      throw new Error(`config.${shape.name} must be an absolute http(s) URL, not '${value.slice(0, 100)}'`);
    }
  }
  const label = shape.prefix || shape.suffix ? /^[A-Za-z0-9-]+$/ : /^([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:\d{1,5})?$/;
  if (!label.test(value)) throw new Error(`config.${shape.name} must be ${shape.prefix || shape.suffix ? "one DNS label" : "a bare host name"}, not '${value.slice(0, 100)}'`);
  return new URL(`${shape.scheme}://${shape.prefix}${value}${shape.suffix}`).origin;
}

/** Encodes each segment of a path value, keeping its slashes; refuses `.` and `..`. */
function encodePath(value: string, source: string): string {
  return value
    .split("/")
    .map((segment) => {
      if (segment === "." || segment === "..") throw new Error(`{{ ${source} }} holds a '${segment}' path segment, which is refused`);
      return encodeURIComponent(segment);
    })
    .join("/");
}
