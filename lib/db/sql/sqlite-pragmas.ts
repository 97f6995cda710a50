/**
 * What every SQLite connection of the app runs first, the journal's writer
 * and Prisma's alike (synchronous is per connection, so each sets it):
 * - WAL: readers never block the writer, and a commit is an append;
 * - synchronous=NORMAL: in WAL mode a commit survives the process being
 *   killed (the OS has it); only a power cut or an OS crash can lose the
 *   last commits, and the database stays consistent. A commit costs no
 *   fsync (FULL, the default, costs one per commit);
 * - busy_timeout: the app's Prisma client and the journal's writer share
 *   the file, so one waits for the other's write lock instead of failing.
 */
export const sqlitePragmas = ["journal_mode = WAL", "synchronous = NORMAL", "busy_timeout = 5000"] as const;
