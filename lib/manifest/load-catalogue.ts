import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { CatalogueNode, NodeManifest } from "./catalogue";
import { didYouMeanSuffix } from "./did-you-mean";
import { importedFolder, type NodeFileKey, nodeFileKeys, nodeFilePaths, nodeFiles, sharedFolder } from "./node-files";
import type { Problem } from "./problem";
import { resolveRefs } from "./resolve-refs";
import { checkSchema, type Locator, sameFile } from "./schema-problems";
import { problemAt, readSourceFile, type SourceFile } from "./source-file";

/** A node folder as the lint sees it: its parsed files and where each value came from. */
export interface LoadedNode extends CatalogueNode {
  sources: Partial<Record<NodeFileKey, SourceFile>>;
  locators: Partial<Record<NodeFileKey, Locator>>;
  /** The schema-checked value of each file that passed its schema. */
  parts: Partial<NodeManifest>;
  /** The manifest files that exist in the folder, usable or not. */
  files: Set<NodeFileKey>;
}

/** True when a file is in the folder but could not be used (its own problems say why). */
export function isBroken(node: LoadedNode, key: NodeFileKey): boolean {
  return node.files.has(key) && node.parts[key] === undefined;
}

export interface LoadedCatalogue {
  root: string;
  nodes: LoadedNode[];
  protocols: Map<string, SourceFile>;
  /** Problems that belong to no node (the root, nodes/shared/). */
  problems: Problem[];
}

const start = { line: 1, column: 1 };
/** Files people keep in node folders that are not manifests. */
const ignoredFile = /\.(md|txt|png|svg|jpg|jpeg|gif|webp)$/i;

/**
 * Reads the whole nodes/ tree into typed manifests. Never throws for a
 * problem in the tree: every unreadable, broken or misplaced file becomes a
 * problem with a file, line and column, and every folder is listed.
 */
export async function loadCatalogue(root: string, displayBase = path.dirname(path.resolve(root))): Promise<LoadedCatalogue> {
  const absoluteRoot = path.resolve(root);
  const display = (absolute: string) => path.relative(displayBase, absolute).split(path.sep).join("/");
  const catalogue: LoadedCatalogue = { root: absoluteRoot, nodes: [], protocols: new Map(), problems: [] };
  let entries: string[];
  try {
    if (!(await stat(absoluteRoot)).isDirectory()) throw new Error("not a folder");
    entries = (await readdir(absoluteRoot)).sort();
  } catch {
    catalogue.problems.push(problemAt(display(absoluteRoot) || ".", start, "nodes-folder-missing", `${absoluteRoot} is not a readable folder of node types`));
    return catalogue;
  }
  if (entries.includes(sharedFolder)) {
    await loadProtocols(path.join(absoluteRoot, sharedFolder), display, catalogue);
    // Each protocol's own $refs are checked even when no node imports it yet.
    for (const protocol of catalogue.protocols.values()) catalogue.problems.push(...resolveRefs(protocol, catalogue.protocols).problems);
  }
  const folders: string[] = [];
  // nodes/imported/ holds what `npm run nodes -- import` wrote (kept out of the repository): its own node folders and shared/.
  if (entries.includes(importedFolder) && (await isFolder(path.join(absoluteRoot, importedFolder)))) {
    const importedRoot = path.join(absoluteRoot, importedFolder);
    const imported = (await readdir(importedRoot)).sort();
    if (imported.includes(sharedFolder)) await loadProtocols(path.join(importedRoot, sharedFolder), display, catalogue);
    for (const entry of imported) {
      if (entry !== sharedFolder && !entry.startsWith(".") && (await isFolder(path.join(importedRoot, entry)))) folders.push(path.join(importedRoot, entry));
    }
  }
  for (const entry of entries) {
    if (entry === sharedFolder || entry === importedFolder || entry.startsWith(".")) continue;
    const absolute = path.join(absoluteRoot, entry);
    if (await isFolder(absolute)) folders.push(absolute);
    else if (!ignoredFile.test(entry)) {
      catalogue.problems.push(problemAt(display(absolute), start, "unknown-file", `${entry} is not a node folder; node types are folders (nodes/<name>/interface.yaml)`, "warning"));
    }
  }
  // Folders load in parallel: the time goes into waiting for the file system, not into parsing.
  catalogue.nodes = await mapInBatches(folders, 32, (folder) => loadNode(folder, display, catalogue.protocols));
  return catalogue;
}

async function mapInBatches<T, R>(items: readonly T[], size: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += size) {
    results.push(...(await Promise.all(items.slice(index, index + size).map(map))));
  }
  return results;
}

/**
 * Reads the protocols of a shared/ folder. A subfolder is a namespace, so two
 * packages' `tools.yaml` do not collide: `shared/airtable/table.yaml` is
 * `$ref: airtable/table`.
 */
async function loadProtocols(folder: string, display: (absolute: string) => string, catalogue: LoadedCatalogue, namespace = "") {
  let files: string[] = [];
  try {
    files = (await readdir(folder)).sort();
  } catch {
    catalogue.problems.push(problemAt(display(folder), start, "file-unreadable", `${display(folder)} cannot be read as a folder of protocols`));
  }
  for (const file of files) {
    const absolute = path.join(folder, file);
    if (!namespace && !file.startsWith(".") && (await isFolder(absolute))) {
      await loadProtocols(absolute, display, catalogue, `${file}/`);
      continue;
    }
    if (!file.endsWith(".yaml")) {
      if (!ignoredFile.test(file)) {
        catalogue.problems.push(problemAt(display(absolute), start, "unknown-file", `protocols in nodes/shared/ are .yaml files; ${file} is ignored`, "warning"));
      }
      continue;
    }
    const { source, problems } = await readSourceFile(absolute, display(absolute));
    catalogue.problems.push(...problems);
    if (source) catalogue.protocols.set(`${namespace}${file.slice(0, -".yaml".length)}`, source);
  }
}

async function loadNode(folder: string, display: (absolute: string) => string, protocols: ReadonlyMap<string, SourceFile>): Promise<LoadedNode> {
  const name = path.basename(folder);
  const node: LoadedNode = { name, dir: display(folder), manifest: null, problems: [], sources: {}, locators: {}, parts: {}, files: new Set() };
  const present = await listFiles(folder);
  for (const file of present) {
    if (nodeFilePaths.includes(file) || ignoredFile.test(file) || file.split("/").some((part) => part.startsWith("."))) continue;
    const message = `${file} is not a manifest file of a node${didYouMeanSuffix(file, nodeFilePaths)}; it is ignored`;
    node.problems.push(problemAt(`${node.dir}/${file}`, start, "unknown-file", message, "warning"));
  }
  for (const key of nodeFileKeys) if (present.includes(nodeFiles[key].path)) node.files.add(key);
  const read = await Promise.all(
    [...node.files]
      .map(async (key) => ({ key, ...(await readSourceFile(path.join(folder, ...nodeFiles[key].path.split("/")), `${node.dir}/${nodeFiles[key].path}`)) })),
  );
  for (const { key, source, problems } of read) {
    node.problems.push(...problems);
    if (!source || source.value === undefined || problems.some((problem) => problem.severity === "error")) continue;
    node.sources[key] = source;
    let value: unknown = source.value;
    let locator = sameFile(source);
    if (nodeFiles[key].refs) {
      const resolved = resolveRefs(source, protocols);
      node.problems.push(...resolved.problems);
      value = resolved.value;
      locator = resolved.locator;
      // What a broken $ref would have brought is missing: checking the rest would only report that again.
      if (resolved.problems.length) {
        node.locators[key] = locator;
        continue;
      }
    }
    // testData written as one map: findings about case 0 point into that map.
    if (key === "test" && isSingleCase(value)) locator = singleCaseLocator(locator);
    node.locators[key] = locator;
    const checked = checkSchema(nodeFiles[key].schema, value, locator);
    node.problems.push(...checked.problems);
    if (checked.data !== undefined) (node.parts as Record<string, unknown>)[key] = checked.data;
  }
  if (!present.includes("interface.yaml")) {
    const message = present.length === 0 ? `${node.dir} is an empty folder: a node needs an interface.yaml` : `${node.dir} has no interface.yaml: every node folder needs one`;
    node.problems.push(problemAt(`${node.dir}/interface.yaml`, start, "missing-interface", message));
  }
  if (node.parts.interface) node.manifest = { ...node.parts, interface: node.parts.interface };
  for (const problem of node.problems) problem.node = name;
  return node;
}

function isSingleCase(value: unknown): boolean {
  const testData = (value as { testData?: unknown } | null)?.testData;
  return testData !== null && typeof testData === "object" && !Array.isArray(testData);
}

function singleCaseLocator(locator: Locator): Locator {
  return (at, target) => locator(at[0] === "testData" && at[1] === 0 ? ["testData", ...at.slice(2)] : at, target);
}

/** Every file below a folder, as paths relative to it with / separators. */
async function listFiles(folder: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  let entries;
  try {
    entries = await readdir(path.join(folder, prefix), { withFileTypes: true });
  } catch {
    return files;
  }
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !nodeFilePaths.includes(relative)) {
      if (prefix.split("/").length < 4) files.push(...(await listFiles(folder, relative)));
    } else {
      files.push(relative);
    }
  }
  return files.sort();
}

async function isFolder(absolute: string): Promise<boolean> {
  try {
    return (await stat(absolute)).isDirectory();
  } catch {
    return false;
  }
}
