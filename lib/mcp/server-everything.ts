import path from "node:path";
import { fileURLToPath } from "node:url";
import { type CataloguedCommand, cataloguedCommand, readStdioCatalogue, renderArguments, type StdioCatalogue, stdioCatalogueFromEnvironment } from "./stdio-catalogue";

/** The catalogue the project ships (switchboard.stdio.json at its root), whatever the working directory. */
export function shippedStdioCatalogue(): StdioCatalogue {
  return readStdioCatalogue(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../switchboard.stdio.json"));
}

/**
 * The MCP project's reference server, @modelcontextprotocol/server-everything
 * (a dev dependency): a real server no one here wrote, started with node
 * over stdio through the `everything` entry of the machine's catalogue, for
 * tests and for checking the client side against.
 */
export function serverEverythingLine(catalogue: StdioCatalogue = stdioCatalogueFromEnvironment()): { command: string; args: string[] } {
  const entry = catalogue.ok ? catalogue.entries.find((candidate) => candidate.id === "everything") : undefined;
  if (!entry) throw new Error(`the stdio catalogue has no 'everything' entry${catalogue.ok ? "" : `: ${catalogue.problem}`}`);
  const rendered = renderArguments(entry, {});
  if (!rendered.ok) throw new Error(rendered.problem.message);
  return { command: entry.command, args: rendered.args };
}

/** The same, as the command a stdio transport starts. */
export function serverEverythingCommand(): CataloguedCommand {
  const catalogue = stdioCatalogueFromEnvironment();
  const verdict = cataloguedCommand(serverEverythingLine(catalogue), {}, catalogue);
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.command;
}
