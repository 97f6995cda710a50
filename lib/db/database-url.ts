import { mkdirSync } from "node:fs";
import path from "node:path";

const defaultUrl = "file:./data/switchboard.db";

/**
 * Where the SQLite database lives. `DATABASE_URL` wins; the default is a file
 * under data/ so a fresh clone needs no set-up.
 */
export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? defaultUrl;
}

/** Creates the folder of a `file:` database so SQLite can create the file. */
export function ensureDatabaseFolder(url: string = databaseUrl()): void {
  if (!url.startsWith("file:")) return;
  const file = url.slice("file:".length);
  if (file === ":memory:") return;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}
