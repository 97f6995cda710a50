import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectRoleChecks, renderRoleTable, withRoleTable } from "./role-table";
import { roles } from "./roles";

const root = path.resolve(import.meta.dirname, "../..");

describe("the role table in docs/security.md", () => {
  const entries = collectRoleChecks(root);

  it("finds a check with a known role (or a stated reason to be public) in every server action, route and page", () => {
    expect(entries.filter((entry) => entry.kind === "server action").length).toBeGreaterThan(20);
    const unchecked = entries.filter((entry) => entry.needs === null).map((entry) => `${entry.file} ${entry.name}`);
    expect(unchecked, "add `await requireRole(…)` (or requirePageRole / requireRouteRole / publicAction) as the first statement").toEqual([]);
    const unknown = entries.filter((entry) => entry.needs !== "anyone" && !(roles as readonly string[]).includes(entry.needs ?? ""));
    expect(unknown.map((entry) => `${entry.file} ${entry.name}: ${entry.needs}`)).toEqual([]);
    expect(entries.filter((entry) => entry.needs === "anyone").every((entry) => (entry.note ?? "").length > 10)).toBe(true);
  });

  it("is up to date: run `npm run docs:security` after adding or changing an entry point", () => {
    const document = readFileSync(path.join(root, "docs", "security.md"), "utf8");
    expect(withRoleTable(document, renderRoleTable(entries))).toBe(document);
  });

  it("reads a route through the helper it imports from beside it, and finds none when the helper checks nothing", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "role-table-"));
    try {
      for (const folder of ["lib", "components"]) mkdirSync(path.join(dir, folder));
      mkdirSync(path.join(dir, "app", "api", "things"), { recursive: true });
      writeFileSync(path.join(dir, "app", "api", "things", "access.ts"), `export async function withThing(request: Request) { return authorizeApiCaller(request, "editor"); }\nexport async function openly(request: Request) { return request; }\n`);
      writeFileSync(path.join(dir, "app", "api", "things", "route.ts"), `import { openly, withThing } from "./access";\nexport async function GET(request: Request) { return withThing(request); }\nexport async function POST(request: Request) { return openly(request); }\n`);
      expect(collectRoleChecks(dir).map((entry) => [entry.name, entry.needs])).toEqual([["GET", "editor"], ["POST", null]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("would catch an action without a check", () => {
    const table = renderRoleTable([{ kind: "server action", file: "app/actions/x.ts", name: "leak", needs: null, via: null }]);
    expect(table).toContain("**NO CHECK**");
  });
});
