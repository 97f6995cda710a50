import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No stdio process starts from a command that did not come through the
 * stdio catalogue. Every place in lib/, app/ and scripts/ that can start a
 * process is listed here with the only first arguments (the program) its
 * calls may have; a new place, a new call, or a program taken from
 * anywhere else fails this test until someone has looked at it. The one
 * MCP stdio spawn takes its program from a catalogued command.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const folders = ["lib", "app", "scripts", "testing"];

/** Each file allowed to start processes, and the program expressions its calls may start. */
const reviewed: Record<string, { programs: string[]; why: string }> = {
  "lib/mcp/process-group-transport.ts": { programs: ["launch.file"], why: "the MCP stdio transport: launch comes from launchOf(CataloguedCommand)" },
  "testing/queue/drill-workers.fixture.ts": { programs: ["process.execPath"], why: "test drill: this node running scripts/worker.ts" },
  "testing/db/temporary-database.fixture.ts": { programs: ['path.join(root, "node_modules", ".bin", "prisma")'], why: "test support: prisma migrate deploy" },
  "testing/mcp/endpoint-web-process.fixture.ts": { programs: ["process.execPath"], why: "test support: this node running a fixture web process" },
  "testing/mcp/endpoint.conformance.ts": { programs: ["process.execPath"], why: "conformance suite: this node bundling the suite's client (scripts/cli-bundle.mjs)" },
  "lib/mcp/conformance/conformance-suite.ts": { programs: ['"bash"', "node22()"], why: "conformance suite: a fixed script and the Node 22 it installs" },
  "scripts/ensure-build.ts": { programs: ["process.execPath"], why: "next build" },
  "scripts/prepare-app.ts": { programs: ['"npx"'], why: "prisma migrate deploy" },
  "scripts/start.ts": { programs: ["process.execPath"], why: "next start" },
  "scripts/postgres-schema.ts": { programs: ["prismaBin"], why: "prisma migrate diff / generate" },
  "scripts/test-cases.ts": { programs: ["process.execPath"], why: "npm run test:cases: this node running `workflow test` on the repository's cases" },
  "scripts/e2e-shards.mjs": { programs: ["process.execPath"], why: "npm run test:e2e: this node running Playwright once per shard" },
  "scripts/test-all.mjs": { programs: ["program"], why: "npm test: its stages, a fixed list in the file (npm run, bash scripts/ensure-chromium.sh, next build, this node running scripts/e2e-shards.mjs)" },
};

const processModules = /(?:from\s+|require\(\s*|import\(\s*)["'](?:node:)?(?:child_process|cluster)["']|["'](?:execa|cross-spawn|node-pty|zx|shelljs|tinyexec|nano-spawn)["']/;
const sdkStdio = /from\s+["']@modelcontextprotocol\/[a-z-]+\/(?:client\/)?stdio(?:\.js)?["']/;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith("lib/generated/"));
}

const files = folders.flatMap(sourceFiles);
const text = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The names a file imports from child_process (spawn, execFile…). */
function importedNames(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](?:node:)?child_process["']/g)) {
    for (const part of match[1].split(",")) {
      const name = part.replace(/^\s*type\s+/, "").split(/\s+as\s+/).pop()?.trim();
      if (name && !/^type\s/.test(part.trim()) && /^[a-z]/.test(name)) names.push(name);
    }
  }
  return names;
}

/** The first argument of each call to one of `names`, as written. */
function programsCalled(source: string, names: string[]): string[] {
  const programs: string[] = [];
  for (const name of names) {
    const call = new RegExp(`(?<![.\\w$])(?:promisify\\(\\s*)?${name}(?:\\s*\\))?\\s*\\(`, "g");
    for (const match of source.matchAll(call)) {
      let depth = 0;
      let end = match.index + match[0].length;
      for (; end < source.length; end++) {
        const character = source[end];
        if ("([{".includes(character)) depth++;
        else if (")]}".includes(character)) {
          if (depth === 0) break;
          depth--;
        } else if (character === "," && depth === 0) break;
      }
      programs.push(source.slice(match.index + match[0].length, end).trim());
    }
  }
  return programs;
}

describe("every place that can start a process", () => {
  it("finds the source files it checks", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain("lib/mcp/process-group-transport.ts");
  });

  it("is one of the reviewed places", () => {
    const starting = files.filter((file) => processModules.test(text(file)));
    expect(starting.filter((file) => !(file in reviewed))).toEqual([]);
    expect(Object.keys(reviewed).filter((file) => !starting.includes(file))).toEqual([]);
  });

  it.each(Object.entries(reviewed))("%s starts only its reviewed programs (%s)", (file, { programs }) => {
    const source = text(file);
    const names = importedNames(source);
    expect(names.length).toBeGreaterThan(0);
    const called = programsCalled(source, names);
    expect(called.length).toBeGreaterThan(0);
    expect(called.filter((program) => !programs.includes(program))).toEqual([]);
  });

  it("no code makes the MCP SDK's own stdio transport; only connect-entry and connectStdio make the catalogued one", () => {
    const sdkTransports = files.filter((file) => /StdioClientTransport/.test(text(file)));
    expect(sdkTransports).toEqual([]);
    // connect-entry reads the SDK's list of harmless variables from its stdio module, and nothing else;
    // the MCP Apps test double serves on its own stdin and stdout (the server side's transport, which starts nothing).
    const stdioImports = files.filter((file) => sdkStdio.test(text(file)));
    expect(stdioImports.sort()).toEqual(["lib/mcp/connect-entry.ts", "testing/mcp/app-server.fixture.mjs"]);
    expect(text("testing/mcp/app-server.fixture.mjs")).toMatch(/import \{ StdioServerTransport \} from "@modelcontextprotocol\/server\/stdio";/);
    expect(text("lib/mcp/connect-entry.ts")).toMatch(/import \{ getDefaultEnvironment \} from "@modelcontextprotocol\/client\/stdio";/);
    const made = files.filter((file) => /new ProcessGroupStdioTransport\(/.test(text(file)));
    expect(made.sort()).toEqual(["lib/mcp/connect-entry.ts", "lib/mcp/stdio-connection.ts"]);
  });

  it("the transport's program is the catalogued command's, checked at run time as well as by type", () => {
    const transport = text("lib/mcp/process-group-transport.ts");
    expect(transport).toMatch(/command: CataloguedCommand;/);
    expect(transport).toMatch(/if \(!isCatalogued\(options\.command\)\) throw/);
    expect(transport).toMatch(/this\.#launch = launchOf\(options\.command\);/);
    expect(text("lib/mcp/connect-entry.ts")).toMatch(/const allowed = cataloguedCommand\(entry, /);
  });

  it("the checker itself notices a spawn it was not told about", () => {
    const planted = 'import { spawn as run } from "node:child_process";\nrun(entry.command, entry.args);\n';
    expect(processModules.test(planted)).toBe(true);
    expect(programsCalled(planted, importedNames(planted))).toEqual(["entry.command"]);
  });
});
