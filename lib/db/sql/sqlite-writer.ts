import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sqlitePragmas } from "./sqlite-pragmas";
import { GuardFailedError, type SqlStatement } from "./sql-database";

/**
 * The thread that commits a SQLite database's transactions: its own
 * better-sqlite3 connection, with the app's pragmas. better-sqlite3 is
 * synchronous, so a commit made on the caller's thread stops the engine for
 * as long as it takes; here the run goes on with its next calls while the
 * group of steps before them commits, as it does on Postgres. Durability is
 * unchanged: a caller's promise resolves only once its transaction is
 * committed (WAL, synchronous=NORMAL, or FULL for a durable one).
 *
 * Plain JavaScript evaluated in the thread, so it runs the same under tsx,
 * the bundled commands and the Next server.
 */
const threadSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);
db.pragma("foreign_keys = ON");
// Statement texts arrive once, numbered; after that a statement names its text by number. Prepared when first run,
// inside its transaction, so a text that does not prepare fails that transaction alone.
const texts = new Map();
const statements = new Map();
const prepared = (text) => {
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = db.prepare(texts.get(text))));
  return statement;
};
const commit = db.transaction((list) => {
  for (const [text, params, guard] of list) {
    const statement = prepared(text);
    if (guard === undefined) statement.run(...params);
    else if (statement.get(...params) === undefined) throw Object.assign(new Error(guard), { guard: true });
  }
});
parentPort.on("message", (message) => {
  if (message.close) {
    db.close();
    return parentPort.close();
  }
  for (const [text, sql] of message.texts) texts.set(text, sql);
  try {
    if (message.durable) db.pragma("synchronous = FULL");
    try {
      commit.immediate(message.list);
    } finally {
      if (message.durable) db.pragma("synchronous = NORMAL");
    }
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code, guard: error && error.guard === true } });
  }
});
`;

interface Pending {
  resolve(): void;
  reject(error: unknown): void;
}

/** A statement as the thread takes it: its text's number, parameters already bound, a guard as its reason. */
type ThreadStatement = [number, unknown[], string | undefined];

export interface SqliteWriter {
  /** The thread failed to start or stopped: its commits were refused, and the connection's own thread commits from now on. */
  readonly failed: boolean;
  commit(list: ReadonlyArray<SqlStatement>, durable: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Starts the writer thread of this database file; `bind` maps parameters as the caller's connection does. */
export function sqliteWriter(file: string, bind: (params?: readonly unknown[]) => unknown[]): SqliteWriter {
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(threadSource, { eval: true, workerData: { file, driver, pragmas: [...sqlitePragmas] } });
  const pending = new Map<number, Pending>();
  let next = 0;
  let failure: Error | null = null;
  const textNumbers = new Map<string, number>();
  let nextText = 0;
  // Idle, the thread does not keep the process alive (a connection never did); with a commit under way it does.
  worker.unref();
  const settleAll = (error: Error) => {
    failure = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on("message", (message: { id: number; error?: { message: string; code?: string; guard: boolean } }) => {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (!waiting) return;
    if (!message.error) return waiting.resolve();
    waiting.reject(message.error.guard ? new GuardFailedError(message.error.message) : Object.assign(new Error(message.error.message), { code: message.error.code }));
  });
  worker.on("error", (error) => settleAll(new Error(`the SQLite writer thread failed: ${error.message}`)));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  void exited.then(() => settleAll(failure ?? new Error("the SQLite writer thread has stopped")));
  return {
    get failed() {
      return failure !== null;
    },
    commit(list, durable) {
      if (failure) return Promise.reject(failure);
      const id = (next += 1);
      // A run writes the same few statement texts thousands of times: each crosses to the thread once, then by number.
      const texts: Array<[number, string]> = [];
      const numbered = list.map(([sql, params, guard]): ThreadStatement => {
        let text = textNumbers.get(sql);
        if (text === undefined) {
          textNumbers.set(sql, (text = nextText++));
          texts.push([text, sql]);
        }
        return [text, bind(params), guard?.reason];
      });
      const message = { id, durable, texts, list: numbered };
      return new Promise<void>((resolve, reject) => {
        try {
          worker.postMessage(message);
        } catch (error) {
          // Not sent (a value that cannot cross to the thread): the thread never learned these texts.
          for (const [, sql] of texts) textNumbers.delete(sql);
          throw error;
        }
        // Sent: the thread keeps the process alive until it answers (its answer cannot arrive before this runs).
        pending.set(id, { resolve, reject });
        worker.ref();
      });
    },
    async close() {
      if (!failure) worker.postMessage({ close: true });
      worker.ref();
      await exited;
    },
  };
}
