import { parse, type Node as AcornNode } from "acorn";
import { parseTemplate } from "../../sandbox/template-syntax";

/**
 * Renames free roots in one manifest string: in `{{ path }}` templates (the
 * path's first segment) and in `return` expressions (identifiers the
 * expression does not declare itself). Text that does not parse is left
 * as it is; the lint reports it.
 *
 * @example renameRoots("return signal.key || ''", { signal: "inputs.signal" }) // "return inputs.signal.key || ''"
 */
export function renameRoots(text: string, renames: Readonly<Record<string, string>>): string {
  if (!Object.keys(renames).some((root) => text.includes(root))) return text;
  let parsed;
  try {
    parsed = parseTemplate(text);
  } catch {
    return text;
  }
  if (parsed.kind === "expression") return renameInExpression(text, renames);
  return text.replace(/\{\{\s*([A-Za-z_$][\w$]*)/g, (whole, root: string) => (Object.hasOwn(renames, root) ? whole.replace(root, renames[root]) : whole));
}

function renameInExpression(text: string, renames: Readonly<Record<string, string>>): string {
  const offset = text.indexOf("return");
  let program: AcornNode;
  try {
    program = parse(text.slice(offset), { ecmaVersion: "latest", allowReturnOutsideFunction: true });
  } catch {
    return text;
  }
  const declared = new Set<string>();
  const hits: Array<{ start: number; end: number; name: string }> = [];
  walk(program, undefined, undefined, (node, parent, key) => {
    const record = node as unknown as Record<string, unknown>;
    if (node.type === "VariableDeclarator" || node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression") {
      for (const pattern of node.type === "VariableDeclarator" ? [record.id] : ((record.params as unknown[]) ?? [])) collectNames(pattern, declared);
    }
    if (node.type !== "Identifier") return;
    const name = record.name as string;
    if (!Object.hasOwn(renames, name)) return;
    if (parent?.type === "MemberExpression" && key === "property" && !(parent as unknown as { computed: boolean }).computed) return;
    if (parent?.type === "Property" && key === "key" && !(parent as unknown as { computed: boolean }).computed) return;
    hits.push({ start: node.start, end: node.end, name });
  });
  let result = text.slice(offset);
  for (const hit of hits.filter((candidate) => !declared.has(candidate.name)).sort((a, b) => b.start - a.start)) {
    result = result.slice(0, hit.start) + renames[hit.name] + result.slice(hit.end);
  }
  return text.slice(0, offset) + result;
}

type Visit = (node: AcornNode, parent: AcornNode | undefined, key: string | undefined) => void;

function walk(node: AcornNode, parent: AcornNode | undefined, key: string | undefined, visit: Visit): void {
  visit(node, parent, key);
  for (const [childKey, child] of Object.entries(node)) {
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) walk(item, node, childKey, visit);
    } else if (isNode(child)) walk(child, node, childKey, visit);
  }
}

function isNode(value: unknown): value is AcornNode {
  return value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string";
}

function collectNames(pattern: unknown, names: Set<string>): void {
  if (!isNode(pattern)) return;
  const record = pattern as unknown as Record<string, unknown>;
  if (pattern.type === "Identifier") names.add(record.name as string);
  else if (pattern.type === "ObjectPattern") for (const property of record.properties as Array<Record<string, unknown>>) collectNames(property.value ?? property.argument, names);
  else if (pattern.type === "ArrayPattern") for (const element of record.elements as unknown[]) collectNames(element, names);
  else if (pattern.type === "AssignmentPattern") collectNames(record.left, names);
  else if (pattern.type === "RestElement") collectNames(record.argument, names);
}

/** Every string in a YAML value, rewritten by `change` (maps and lists are copied). */
export function mapStrings(value: unknown, change: (text: string, key: string | undefined) => string, key?: string): unknown {
  if (typeof value === "string") return change(value, key);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapStrings(item, change, name)]));
  }
  return value;
}
