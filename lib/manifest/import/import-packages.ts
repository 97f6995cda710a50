import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { lintNodes } from "../lint";
import { importedFolder, sharedFolder } from "../node-files";
import { rewriteRefs, translateNode, type TranslatedNode } from "./translate-node";
import { mapStrings, renameRoots } from "./rename-roots";
import { readPlatformUrls, readScopeAsRun } from "./run-scope";
import { inlineHelpers, packageHelpers } from "./inline-helpers";
import { readUnoverseTree, type UnoversePackage } from "./unoverse-tree";
import { insideTarget } from "./import-names";
import { type ConnectionSetting, connectionSettings, moveConnectionSettings, signWithConfigRegion } from "./connection-settings";
import { readFile } from "node:fs/promises";

export interface ImportedNode extends TranslatedNode {
  /** Lint findings of the written node (errors first). */
  lint: { errors: number; warnings: number; first?: string };
}

export interface ImportReport {
  into: string;
  dryRun: boolean;
  nodes: ImportedNode[];
  /** Imported (with or without changes) and lint clean. */
  clean: number;
  notImportable: number;
  lintFailed: number;
}

/**
 * Imports a Unoverse package tree into Switchboard node folders: each node
 * translated (see translateNode), each package's shared/ written under
 * `shared/<package>/` so two packages' fragments never collide, then the
 * written tree linted so the report says which nodes are clean. Every
 * package and node name is one plain folder name (refused with its
 * file:line otherwise), and every path written or removed is resolved and
 * checked to be inside the target. With `dryRun` nothing is written to the
 * target or anywhere else: the tree goes to a private scratch folder, is
 * linted there and removed.
 */
export async function importPackages(dir: string, options: { into: string; dryRun?: boolean; origin?: string }): Promise<ImportReport> {
  const packages = await readUnoverseTree(dir);
  const target = options.dryRun ? await mkdtemp(path.join(os.tmpdir(), "sb-import-")) : path.resolve(options.into);
  const taken = new Set(await catalogueNames(path.resolve(options.into)));
  const nodes: TranslatedNode[] = [];
  try {
    for (const pkg of packages) {
      let anyImported = false;
      const settings = connectionSettings(pkg, await apiTexts(pkg));
      for (const nodeDir of pkg.nodeDirs) {
        const translated = await translateNode(pkg, nodeDir, { takenNames: taken, origin: options.origin ?? "unoverse-platform/marketplace", settings });
        nodes.push(translated);
        if (translated.status === "not-importable") continue;
        taken.add(translated.name);
        anyImported = true;
        await writeNode(insideTarget(target, translated.name), translated.files);
      }
      if (anyImported) await writeShared(insideTarget(target, sharedFolder, pkg.name), pkg.shared, pkg, settings);
    }
    const linted = await lintNodes(target, { displayBase: path.dirname(target) });
    const imported = nodes.map((node): ImportedNode => {
      const problems = linted.nodes.find((candidate) => candidate.name === node.name && node.status !== "not-importable")?.problems ?? [];
      const errors = problems.filter((problem) => problem.severity === "error");
      const first = errors[0] ?? problems[0];
      return { ...node, lint: { errors: errors.length, warnings: problems.length - errors.length, ...(first ? { first: `${first.file}:${first.line}:${first.column} ${first.rule} ${first.message}` } : {}) } };
    });
    return {
      into: options.dryRun ? "(dry run)" : target,
      dryRun: Boolean(options.dryRun),
      nodes: imported,
      clean: imported.filter((node) => node.status !== "not-importable" && node.lint.errors === 0).length,
      notImportable: imported.filter((node) => node.status === "not-importable").length,
      lintFailed: imported.filter((node) => node.status !== "not-importable" && node.lint.errors > 0).length,
    };
  } finally {
    if (options.dryRun) await rm(target, { recursive: true, force: true });
  }
}

/** Every api/ file of a package's nodes, as JSON text (comments left out). */
async function apiTexts(pkg: UnoversePackage): Promise<string[]> {
  const texts: string[] = [];
  for (const nodeDir of pkg.nodeDirs) {
    for (const file of ["run", "events", "service", "toolExchange"]) {
      try {
        texts.push(JSON.stringify(parse(await readFile(path.join(nodeDir, "api", `${file}.yaml`), "utf8"))));
      } catch {
        // no such file
      }
    }
  }
  return texts;
}

async function writeNode(folder: string, files: Record<string, unknown>): Promise<void> {
  // Every file's place is checked before anything in the folder is removed.
  const places = Object.entries(files).map(([file, value]) => [insideTarget(folder, file), value] as const);
  await rm(folder, { recursive: true, force: true });
  for (const [file, value] of places) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, stringify(value, { lineWidth: 0 }));
  }
}

async function writeShared(folder: string, shared: ReadonlyMap<string, string>, pkg: Parameters<typeof rewriteRefs>[1], settings: readonly ConnectionSetting[]): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  // The package's helper functions are written into the fragments' expressions too, as into the nodes'.
  const helpers = packageHelpers(shared);
  for (const [stem, text] of shared) {
    const file = insideTarget(folder, `${stem}.yaml`);
    const value = signWithConfigRegion(rewriteRefs(mapStrings(parse(text), (item) => { const moved = moveConnectionSettings(readScopeAsRun(readPlatformUrls(renameRoots(item, { signal: "inputs.signal" }))), settings); return helpers && stem !== "helpers" ? inlineHelpers(moved, helpers) : moved; }), pkg), settings);
    await writeFile(file, stringify(value ?? {}, { lineWidth: 0 }));
  }
}

/** The node names already in the catalogue the import joins (nodes/ beside nodes/imported/, and the target itself). */
async function catalogueNames(into: string): Promise<string[]> {
  const folders = async (dir: string) => {
    try {
      return (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== sharedFolder && entry.name !== importedFolder).map((entry) => entry.name);
    } catch {
      return [];
    }
  };
  return path.basename(into) === importedFolder ? folders(path.dirname(into)) : [];
}

/** The report as lines: one per node, its notes indented, then the totals. */
export function formatImportReport(report: ImportReport): string {
  const lines: string[] = [];
  for (const node of report.nodes) {
    if (node.status === "not-importable") {
      lines.push(`✗ ${node.source}: not importable: needs ${node.reason}`);
      continue;
    }
    const verdict = node.lint.errors ? `imported, but the lint finds ${node.lint.errors} error(s): ${node.lint.first}` : node.status === "changed" ? "imported with changes" : "imported";
    lines.push(`${node.lint.errors ? "!" : "✓"} ${node.source} → ${node.name}: ${verdict}`);
    for (const note of node.notes) lines.push(`    - ${note}`);
  }
  lines.push(`${report.nodes.length} nodes: ${report.clean} imported and lint clean, ${report.notImportable} not importable, ${report.lintFailed} imported with lint errors${report.dryRun ? " (dry run: nothing written)" : ` (written to ${report.into})`}`);
  return lines.join("\n");
}
