import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** One entry point of the app and the check it makes first. */
export interface RoleCheck {
  kind: "server action" | "route" | "page";
  /** The file, relative to the project root. */
  file: string;
  /** The exported function (GET, POST… for a route; `page` for a page). */
  name: string;
  /** The minimum role, `anyone` for a public entry point, or null when no check was found. */
  needs: string | null;
  /** How it checks: requireRole, requirePageRole, requireRouteRole, authorizeEndpointBearer (bearer token), authorizeApiCaller (token or session) or publicAction. */
  via: string | null;
  /** A public entry point's reason. */
  note?: string;
}

const checks = new Set(["requireRole", "requirePageRole", "requireRouteRole", "authorizeEndpointBearer", "authorizeApiCaller", "publicAction"]);
const skipped = new Set(["node_modules", ".next", "generated"]);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The first check call inside `node`, following calls to functions of the same file (or imported from beside it) one level deep. */
function findCheck(node: ts.Node, locals: Map<string, ts.Node>, depth = 0): { via: string; argument: string } | null {
  let found: { via: string; argument: string } | null = null;
  const visit = (child: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(child) && ts.isIdentifier(child.expression)) {
      const name = child.expression.text;
      if (checks.has(name)) {
        // The role (or a public entry point's reason) is the first argument; authorizeApiCaller takes it second, authorizeEndpointBearer third.
        const literal = name === "authorizeEndpointBearer" ? child.arguments[2] : name === "authorizeApiCaller" ? child.arguments[1] : child.arguments[0];
        found = { via: name, argument: literal && ts.isStringLiteralLike(literal) ? literal.text : "(not a literal)" };
        return;
      }
      const local = locals.get(name);
      if (local && depth === 0) {
        found = findCheck(local, locals, 1);
        if (found) return;
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/**
 * The functions a file imports by name from a file of its own folder or one
 * above (`./thread-access`): an entry point whose first call is a shared
 * helper of its routes is read through that helper, as a function of its own
 * file would be.
 */
function importedFunctions(full: string, source: ts.SourceFile): Map<string, ts.Node> {
  const found = new Map<string, ts.Node>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !/^\.\.?\//.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const base = path.resolve(path.dirname(full), statement.moduleSpecifier.text);
    const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
    if (!target) continue;
    const imported = ts.createSourceFile(target, readFileSync(target, "utf8"), ts.ScriptTarget.Latest, true);
    const wanted = new Map(bindings.elements.map((element) => [(element.propertyName ?? element.name).text, element.name.text]));
    for (const declaration of imported.statements) {
      if (ts.isFunctionDeclaration(declaration) && declaration.body && declaration.name && wanted.has(declaration.name.text)) found.set(wanted.get(declaration.name.text)!, declaration.body);
    }
  }
  return found;
}

function entryKind(file: string, text: string): RoleCheck["kind"] | null {
  if (/(^|\/)route\.tsx?$/.test(file)) return "route";
  if (/(^|\/)page\.tsx?$/.test(file)) return "page";
  return /^\s*(["'])use server\1/.test(text) ? "server action" : null;
}

/**
 * Every exported server action ("use server" files), route handler
 * (app/**\/route.ts) and page (app/**\/page.tsx) under `root`, with the role
 * its first check asks for.
 */
export function collectRoleChecks(root: string): RoleCheck[] {
  const entries: RoleCheck[] = [];
  for (const full of ["app", "lib", "components"].flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    const file = path.relative(root, full).split(path.sep).join("/");
    const text = readFileSync(full, "utf8");
    const kind = entryKind(file, text);
    if (!kind) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const locals = importedFunctions(full, source);
    const exported: Array<{ name: string; node: ts.Node }> = [];
    for (const statement of source.statements) {
      const isExported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      const isDefault = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
      if (ts.isFunctionDeclaration(statement) && statement.body) {
        if (statement.name) locals.set(statement.name.text, statement.body);
        if (isExported) exported.push({ name: isDefault ? "page" : (statement.name?.text ?? "default"), node: statement.body });
      }
      if (ts.isVariableStatement(statement) && isExported) {
        for (const declaration of statement.declarationList.declarations) {
          const value = declaration.initializer;
          if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) && ts.isIdentifier(declaration.name)) exported.push({ name: declaration.name.text, node: value.body });
        }
      }
    }
    for (const { name, node } of exported) {
      if (kind === "page" && name !== "page") continue;
      if (kind === "route" && !/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(name)) continue;
      const check = findCheck(node, locals);
      const needs = !check ? null : check.via === "publicAction" ? "anyone" : check.argument;
      entries.push({ kind, file, name, needs, via: check?.via ?? null, ...(check?.via === "publicAction" ? { note: check.argument } : {}) });
    }
  }
  const order = { "server action": 0, route: 1, page: 2 };
  return entries.sort((a, b) => order[a.kind] - order[b.kind] || a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}

/** The route or page path of an app/ file: app/runs/[id]/page.tsx → /runs/[id]. */
function appPath(file: string): string {
  return "/" + file.replace(/^app\//, "").replace(/\/?(page|route)\.tsx?$/, "");
}

const viaWords: Record<string, string> = {
  requireRole: "session",
  requirePageRole: "session (else to /sign-in)",
  requireRouteRole: "session (else 401/403)",
  authorizeEndpointBearer: "bearer token",
  authorizeApiCaller: "bearer token or session",
  publicAction: "none",
};

/** The markdown table docs/security.md carries between its role-table markers. */
export function renderRoleTable(entries: readonly RoleCheck[]): string {
  const rows = entries.map((entry) => {
    const where = entry.kind === "server action" ? `\`${entry.name}\` (${entry.file})` : `\`${appPath(entry.file)}\`${entry.kind === "route" ? ` ${entry.name}` : ""}`;
    const needs = entry.needs === null ? "**NO CHECK**" : entry.needs === "anyone" ? `anyone: ${entry.note}` : `**${entry.needs}**`;
    return `| ${entry.kind} | ${where} | ${needs} | ${entry.via ? viaWords[entry.via] : "—"} |`;
  });
  return ["| Kind | Entry point | Needs | Checked by |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

export const tableStart = "<!-- role-table:start (generated by `npm run docs:security`; do not edit by hand) -->";
export const tableEnd = "<!-- role-table:end -->";

/** docs/security.md with its table replaced by a fresh one. */
export function withRoleTable(document: string, table: string): string {
  const start = document.indexOf(tableStart);
  const end = document.indexOf(tableEnd);
  if (start < 0 || end < start) throw new Error(`docs/security.md has lost its role-table markers (${tableStart} … ${tableEnd}); put them back where the table goes`);
  return document.slice(0, start + tableStart.length) + "\n\n" + table + "\n\n" + document.slice(end);
}
