/**
 * The syntax of manifest strings, without evaluating anything:
 * - `return <expression>`: a JavaScript expression, run in the sandbox;
 * - exactly one `{{ path }}`: the value at that path, keeping its type;
 * - text with `{{ path }}` inside: the values rendered into the text;
 * - anything else: a literal.
 */
export type ParsedTemplate =
  | { kind: "literal"; text: string }
  | { kind: "expression"; source: string }
  | { kind: "whole"; path: TemplatePath }
  | { kind: "interpolated"; parts: TemplatePart[] };

export interface TemplatePath {
  /** The path as written, e.g. `calls.search.items.0.id`. */
  text: string;
  /** Its segments: the root first, e.g. ["calls", "search", "items", "0", "id"]. */
  segments: string[];
  /** Offset of the path's first character in the source string. */
  offset: number;
}

export type TemplatePart = { kind: "text"; text: string } | { kind: "path"; path: TemplatePath };

export class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset in the source string where the problem is. */
    readonly offset: number,
  ) {
    super(message);
    this.name = "TemplateSyntaxError";
  }
}

const expressionPrefix = "return ";
const segmentPattern = /^[A-Za-z0-9_$-]+$/;

/** True when a string is a `return` expression rather than a template. */
export function isExpression(source: string): boolean {
  return source.trimStart().startsWith(expressionPrefix);
}

/** Parses one manifest string. Throws TemplateSyntaxError on a malformed `{{ }}`. */
export function parseTemplate(source: string): ParsedTemplate {
  if (isExpression(source)) return { kind: "expression", source: source.trimStart() };
  if (!source.includes("{{")) {
    if (source.includes("}}")) throw new TemplateSyntaxError("'}}' without an opening '{{'", source.indexOf("}}"));
    return { kind: "literal", text: source };
  }
  const parts = splitParts(source);
  const paths = parts.filter((part) => part.kind === "path");
  const onlyText = parts.filter((part) => part.kind === "text").every((part) => part.text.trim() === "");
  if (paths.length === 1 && onlyText) return { kind: "whole", path: paths[0].path };
  return { kind: "interpolated", parts };
}

function splitParts(source: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let cursor = 0;
  while (cursor < source.length) {
    const open = source.indexOf("{{", cursor);
    if (open === -1) {
      pushText(parts, source.slice(cursor), cursor);
      break;
    }
    pushText(parts, source.slice(cursor, open), cursor);
    const close = source.indexOf("}}", open + 2);
    if (close === -1) throw new TemplateSyntaxError("'{{' is never closed with '}}'", open);
    parts.push({ kind: "path", path: parsePath(source.slice(open + 2, close), open + 2) });
    cursor = close + 2;
  }
  return parts;
}

function pushText(parts: TemplatePart[], text: string, offset: number): void {
  if (text === "") return;
  const stray = text.indexOf("}}");
  if (stray !== -1) throw new TemplateSyntaxError("'}}' without an opening '{{'", offset + stray);
  parts.push({ kind: "text", text });
}

function parsePath(inner: string, innerOffset: number): TemplatePath {
  const text = inner.trim();
  const offset = innerOffset + inner.indexOf(text.charAt(0) || " ");
  if (text === "") throw new TemplateSyntaxError("empty '{{ }}': write a path such as {{ params.query }}", innerOffset);
  const segments = text.split(".");
  for (const segment of segments) {
    if (!segmentPattern.test(segment)) {
      throw new TemplateSyntaxError(
        `'${text}' is not a dot path (letters, digits, _ and - between dots); use a 'return' expression for anything more`,
        offset,
      );
    }
  }
  return { text, segments, offset };
}

/** Every `{{ path }}` in a parsed template (none for literals and expressions). */
export function templatePaths(template: ParsedTemplate): TemplatePath[] {
  if (template.kind === "whole") return [template.path];
  if (template.kind === "interpolated") {
    return template.parts.flatMap((part) => (part.kind === "path" ? [part.path] : []));
  }
  return [];
}
