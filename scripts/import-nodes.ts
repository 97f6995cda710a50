/**
 * npm run nodes -- import DIR [--into DIR] [--dry-run] [--json]
 * Imports Unoverse node packages (a marketplace checkout, one package or one
 * node) into Switchboard node folders, default nodes/imported/ (not part of
 * the repository). Prints one line per node and the totals; exit 1 when a
 * node was written but does not lint clean.
 */
import path from "node:path";
import { formatImportReport, ImportInputError, importPackages } from "../lib/manifest";

export async function importCommand(dirs: string[], options: { into?: string; dryRun: boolean; json: boolean }): Promise<number> {
  if (dirs.length !== 1) {
    console.error("usage: npm run nodes -- import DIR [--into DIR] [--dry-run] [--json]");
    return 2;
  }
  try {
    const report = await importPackages(path.resolve(dirs[0]), { into: options.into ?? path.join("nodes", "imported"), dryRun: options.dryRun });
    console.log(options.json ? JSON.stringify(report, (key, value) => (key === "files" ? undefined : value), 2) : formatImportReport(report));
    return report.lintFailed ? 1 : 0;
  } catch (error) {
    if (error instanceof ImportInputError) {
      console.error(`nodes import: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
