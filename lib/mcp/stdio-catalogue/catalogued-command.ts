import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { Confinement } from "./catalogue-file";
import { environmentProblem, matchCatalogue, type StoredCommandLine } from "./catalogue-match";
import type { StdioCatalogue } from "./read-catalogue";

/** Commands made here, and only here: the transport refuses anything else. */
const issued = new WeakSet<CataloguedCommand>();

/**
 * A command line the stdio catalogue allows: its executable as the
 * catalogue resolved it, its arguments as stored (each one matched to its
 * template), and only the environment variables the entry declares plus
 * those the catalogue fixes. The only thing a stdio transport will start;
 * made only by `cataloguedCommand`.
 */
export class CataloguedCommand {
  private constructor(
    /** The catalogue entry's id. */
    readonly catalogueEntry: string,
    readonly executable: string,
    readonly args: readonly string[],
    /** The declared variables the entry set (secrets filled in) and those the catalogue fixes. */
    readonly env: Readonly<Record<string, string>>,
    readonly confine: Confinement | undefined,
  ) {}

  static issue(parts: { catalogueEntry: string; executable: string; args: readonly string[]; env: Readonly<Record<string, string>>; confine: Confinement | undefined }): CataloguedCommand {
    const command = new CataloguedCommand(parts.catalogueEntry, parts.executable, Object.freeze([...parts.args]), Object.freeze({ ...parts.env }), parts.confine);
    issued.add(command);
    return Object.freeze(command);
  }
}

export type CataloguedVerdict = { ok: true; command: CataloguedCommand } | { ok: false; reason: string; catalogueLine?: string };

/**
 * The command a stored stdio entry may start, or why none. `filledEnv` is
 * the entry's env with its secrets filled in; a filled value is checked
 * against its declared pattern here, when it is first known.
 */
export function cataloguedCommand(line: StoredCommandLine, filledEnv: Readonly<Record<string, string>>, catalogue: StdioCatalogue): CataloguedVerdict {
  const match = matchCatalogue(line, catalogue);
  if (!match.ok) return match;
  const { entry } = match;
  if (entry.executable === null) return { ok: false, reason: `the catalogue entry '${entry.id}' (${entry.place}) names '${entry.command}', which is not an executable file on this machine's PATH` };
  const envProblem = environmentProblem(entry, filledEnv, { filled: true });
  if (envProblem) return { ok: false, reason: `${envProblem.field}: ${envProblem.message}` };
  const fixed = Object.fromEntries(Object.entries(entry.env).flatMap(([key, spec]) => (spec.value === undefined ? [] : [[key, spec.value]])));
  return { ok: true, command: CataloguedCommand.issue({ catalogueEntry: entry.id, executable: entry.executable, args: line.args, env: { ...filledEnv, ...fixed }, confine: entry.confine }) };
}

/** Whether a command came from `cataloguedCommand` (a cast or a copy did not). */
export function isCatalogued(command: unknown): command is CataloguedCommand {
  return typeof command === "object" && command !== null && issued.has(command as CataloguedCommand);
}

/** What to start for a catalogued command: itself, or bubblewrap around it when the catalogue asks for confinement. */
export interface Launch {
  file: string;
  args: string[];
}

export class ConfinementUnavailableError extends Error {
  override name = "ConfinementUnavailableError";
  readonly code = "confinement-unavailable";
}

/**
 * The process to start. A confined entry runs under bubblewrap: the whole
 * file system mounted read-only (apart from its declared writable folders
 * and a private /tmp), fresh /dev and /proc, every namespace unshared (no
 * network unless the entry says "full"; its own process tree, so it sees
 * no other process), ended with its parent. Without bubblewrap a confined
 * entry does not start at all.
 */
export function launchOf(command: CataloguedCommand, searchPath = process.env.PATH ?? ""): Launch {
  if (!isCatalogued(command)) throw new TypeError("only a command from the stdio catalogue can be started");
  if (!command.confine) return { file: command.executable, args: [...command.args] };
  const bwrap = findBubblewrap(searchPath);
  if (!bwrap) {
    throw new ConfinementUnavailableError(`the catalogue entry '${command.catalogueEntry}' runs confined, and bubblewrap (bwrap) is not installed on this machine (Debian: apt-get install bubblewrap)`);
  }
  const writable = command.confine.writable.flatMap((folder) => ["--bind", folder, folder]);
  const network = command.confine.network === "full" ? ["--share-net"] : [];
  return {
    file: bwrap,
    args: ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", ...keptUnderTmp(command), ...writable, "--unshare-all", ...network, "--die-with-parent", "--", command.executable, ...command.args],
  };
}

/**
 * What the private /tmp must not hide: the folders, under /tmp, of the
 * program and of the absolute paths among its arguments, and the app's own
 * folder when it lives there (a checkout in /tmp: the server's modules are
 * read from its node_modules). Bound read-only over the empty /tmp.
 */
function keptUnderTmp(command: CataloguedCommand): string[] {
  const underTmp = (candidate: string) => candidate.startsWith("/tmp/");
  const folders = new Set<string>();
  if (underTmp(process.cwd())) folders.add(process.cwd());
  for (const candidate of [command.executable, ...command.args]) {
    if (path.isAbsolute(candidate) && underTmp(candidate)) folders.add(path.dirname(path.normalize(candidate)));
  }
  return [...folders].sort().flatMap((folder) => ["--ro-bind-try", folder, folder]);
}

/** bubblewrap on PATH (absolute folders only). */
export function findBubblewrap(searchPath = process.env.PATH ?? ""): string | null {
  const folders = searchPath.split(path.delimiter).filter((folder) => folder.startsWith("/"));
  for (const folder of folders) {
    const candidate = path.join(folder, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
