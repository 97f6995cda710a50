import { parse, type Node as AcornNode } from "acorn";

/** Every root a manifest string may read, in any context. */
export const knownRoots = new Set(["params", "config", "inputs", "calls", "response", "status", "credentials", "user", "run", "tool", "call", "result", "results", "text", "toolCalls", "output", "fixture", "state", "batch", "batchIndex"]);

/** What the sandbox offers every expression besides the roots: the language's own built-ins, and sha256(). */
export const expressionGlobals: ReadonlySet<string> = new Set([
  "Math", "JSON", "String", "Number", "Boolean", "Array", "Object", "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Symbol", "BigInt",
  "Error", "TypeError", "RangeError", "SyntaxError", "Promise", "Reflect", "Proxy",
  "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
  "undefined", "NaN", "Infinity", "globalThis", "Uint8Array", "ArrayBuffer", "DataView",
  "arguments", "sha256",
]);

/** A reading of `root.property` (or of `root` alone) in a `return` expression. */
export interface RootReference {
  root: string;
  /** The first property read, when it is static (`config.model` → "model"). */
  property?: string;
}

export type ExpressionCheck = { ok: true; references: RootReference[] } | { ok: false; message: string; line: number };

/**
 * Parses a `return …` snippet as a function body (nothing is run) and lists
 * the roots it reads. Names the snippet declares itself (arrow parameters,
 * variables) shadow roots and are not reported.
 */
export function checkExpression(source: string): ExpressionCheck {
  let program: AcornNode;
  try {
    // Without `locations`: a SyntaxError still carries its line, and nodes stay small.
    program = parse(source, { ecmaVersion: "latest", allowReturnOutsideFunction: true });
  } catch (error) {
    const { message, loc } = error as SyntaxError & { loc?: { line: number } };
    return { ok: false, message: message.replace(/\s*\(\d+:\d+\)$/, ""), line: loc?.line ?? 1 };
  }
  const declared = new Set<string>();
  const references: RootReference[] = [];
  visit(program, (node) => collectDeclared(node, declared));
  visit(program, (node, parent, key) => {
    if (node.type !== "Identifier") return;
    const name = (node as unknown as { name: string }).name;
    // Every free name is reported, not only the known roots: `return signal.x` must not lint clean and then fail with a ReferenceError.
    if (expressionGlobals.has(name) || declared.has(name) || !isReading(parent, key)) return;
    let property: string | undefined;
    if (parent?.type === "MemberExpression" && key === "object") {
      const member = parent as unknown as { computed: boolean; property: { type: string; name?: string; value?: unknown } };
      if (!member.computed && member.property.type === "Identifier") property = member.property.name;
      if (member.computed && member.property.type === "Literal" && typeof member.property.value === "string") property = member.property.value;
    }
    references.push({ root: name, property });
  });
  return { ok: true, references };
}

type Visitor = (node: AcornNode, parent: AcornNode | undefined, key: string | undefined) => void;

function visit(node: AcornNode, visitor: Visitor, parent?: AcornNode, key?: string): void {
  visitor(node, parent, key);
  const record = node as unknown as Record<string, unknown>;
  for (const childKey in record) {
    if (childKey === "type" || childKey === "start" || childKey === "end" || childKey === "loc") continue;
    const child = record[childKey];
    if (child === null || typeof child !== "object") continue;
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) visit(item, visitor, node, childKey);
    } else if (isNode(child)) {
      visit(child, visitor, node, childKey);
    }
  }
}

function isNode(value: unknown): value is AcornNode {
  return value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string";
}

/** True when an identifier in this position reads a variable (not a property name or an object key). */
function isReading(parent: AcornNode | undefined, key: string | undefined): boolean {
  if (!parent) return true;
  if (parent.type === "MemberExpression" && key === "property") return (parent as unknown as { computed: boolean }).computed;
  if (parent.type === "Property" && key === "key") return (parent as unknown as { computed: boolean }).computed;
  return true;
}

function collectDeclared(node: AcornNode, declared: Set<string>): void {
  const add = (pattern: unknown) => collectPatternNames(pattern, declared);
  const record = node as unknown as Record<string, unknown>;
  if (node.type === "VariableDeclarator") add(record.id);
  if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") {
    for (const parameter of (record.params as unknown[]) ?? []) add(parameter);
    if (record.id) add(record.id);
  }
  if (node.type === "CatchClause" && record.param) add(record.param);
}

function collectPatternNames(pattern: unknown, names: Set<string>): void {
  if (!isNode(pattern)) return;
  const record = pattern as unknown as Record<string, unknown>;
  switch (pattern.type) {
    case "Identifier":
      names.add(record.name as string);
      return;
    case "ObjectPattern":
      for (const property of record.properties as unknown[]) collectPatternNames((property as Record<string, unknown>).value ?? (property as Record<string, unknown>).argument, names);
      return;
    case "ArrayPattern":
      for (const element of record.elements as unknown[]) collectPatternNames(element, names);
      return;
    case "RestElement":
      collectPatternNames(record.argument, names);
      return;
    case "AssignmentPattern":
      collectPatternNames(record.left, names);
      return;
  }
}
