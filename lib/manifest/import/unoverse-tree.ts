import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { placeOfKey, segmentProblem } from "./import-names";

/** One Unoverse package as the importer reads it. */
export interface UnoversePackage {
  name: string;
  dir: string;
  /** package.yaml, parsed (displayName, allowedHosts, …). */
  manifest: Record<string, unknown>;
  /** credentials/<name>.yaml by credential name. */
  credentials: Map<string, Record<string, unknown>>;
  /** shared/<stem>.yaml as written, by stem. */
  shared: Map<string, string>;
  /** The node folders to import (all of the package's, or the one asked for). */
  nodeDirs: string[];
}

export class ImportInputError extends Error {}

/**
 * Finds the packages under a directory: a marketplace checkout
 * (definitions/nodes/<package>/), a folder of packages, one package (with
 * package.yaml) or one node (with node.yaml, inside its package).
 */
export async function readUnoverseTree(dir: string): Promise<UnoversePackage[]> {
  const root = path.resolve(dir);
  if (!(await exists(root))) throw new ImportInputError(`${dir} does not exist`);
  if (await exists(path.join(root, "node.yaml"))) {
    const packageDir = path.dirname(root);
    if (!(await exists(path.join(packageDir, "package.yaml")))) throw new ImportInputError(`${dir} is a node, but ${packageDir} has no package.yaml`);
    return [await readPackage(packageDir, [root])];
  }
  if (await exists(path.join(root, "package.yaml"))) return [await readPackage(root)];
  for (const candidate of [path.join(root, "definitions", "nodes"), root]) {
    const entries = await listFolders(candidate);
    const packages = [];
    for (const entry of entries) if (await exists(path.join(candidate, entry, "package.yaml"))) packages.push(await readPackage(path.join(candidate, entry)));
    if (packages.length) return packages;
  }
  throw new ImportInputError(`${dir} holds no Unoverse package (no package.yaml in it, in its folders, or in definitions/nodes/*)`);
}

async function readPackage(dir: string, only?: string[]): Promise<UnoversePackage> {
  const manifest = (await readYaml(path.join(dir, "package.yaml"))) as Record<string, unknown>;
  const credentials = new Map<string, Record<string, unknown>>();
  const name = typeof manifest?.name === "string" ? manifest.name : path.basename(dir);
  // The name becomes a folder (shared/<name>/) and part of $ref paths: one plain segment, or the package is refused.
  const problem = segmentProblem(name);
  if (problem) {
    const place = typeof manifest?.name === "string" ? await placeOfKey(path.join(dir, "package.yaml"), "name") : path.join(dir, "package.yaml");
    throw new ImportInputError(`${place}: name: ${problem}`);
  }
  for (const file of await listFiles(path.join(dir, "credentials"))) {
    const credential = (await readYaml(path.join(dir, "credentials", file))) as Record<string, unknown> | null;
    if (credential && typeof credential.name === "string") credentials.set(credential.name, credential);
  }
  const shared = new Map<string, string>();
  for (const file of await listFiles(path.join(dir, "shared"))) shared.set(file.slice(0, -".yaml".length), await readFile(path.join(dir, "shared", file), "utf8"));
  const nodeDirs = only ?? [];
  if (!only) {
    for (const entry of await listFolders(dir)) if (await exists(path.join(dir, entry, "node.yaml"))) nodeDirs.push(path.join(dir, entry));
  }
  return { name, dir, manifest: manifest ?? {}, credentials, shared, nodeDirs };
}

export async function readYaml(file: string): Promise<unknown> {
  return parse(await readFile(file, "utf8"));
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((file) => file.endsWith(".yaml")).sort();
  } catch {
    return [];
  }
}

async function listFolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !entry.name.startsWith("_")).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
