/** npm run docs:nodes — regenerates the reference part of docs/nodes.md from the manifest schemas. */
import { readFile, writeFile } from "node:fs/promises";
import { renderManifestReference, spliceReference } from "../lib/manifest";

const page = "docs/nodes.md";
const current = await readFile(page, "utf8");
const next = spliceReference(current, renderManifestReference());
if (next === current) {
  console.log(`${page} is up to date`);
} else {
  await writeFile(page, next);
  console.log(`${page} regenerated`);
}
