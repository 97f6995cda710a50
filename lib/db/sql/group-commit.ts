import type { SqlStatement, TransactionOptions } from "./sql-database";

type Commit = (statements: ReadonlyArray<SqlStatement>, options?: TransactionOptions) => Promise<void>;

interface Waiting {
  statements: ReadonlyArray<SqlStatement>;
  durable: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the transactions asked for in the same turn of the event
 * loop, or while the previous commit is under way, are committed together
 * as one transaction, in the order they were asked for. Each caller's
 * promise still resolves only once its own statements are committed, so a
 * step is as durable as if it had committed alone; a burst of parallel tool
 * calls ending together costs one commit instead of one each.
 *
 * When the shared commit fails, each transaction of it is committed again
 * on its own, so one bad transaction (a fenced-off worker, a broken row)
 * fails only its own caller. A shared commit is durable (see
 * TransactionOptions) when any of its transactions asked to be.
 *
 * @example
 * const transaction = groupCommit((statements) => runInOneTransaction(statements));
 * await Promise.all([transaction(stepA), transaction(stepB)]); // one commit
 */
export function groupCommit(commit: Commit): Commit {
  let waiting: Waiting[] = [];
  let flushing: Promise<void> | null = null;

  const flush = async () => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await commitBatch(commit, batch);
    }
    flushing = null;
  };

  return (statements, options) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ statements, durable: options?.durable === true, resolve, reject });
      flushing ??= new Promise<void>((next) => setImmediate(next)).then(flush);
    });
}

async function commitBatch(commit: Commit, batch: Waiting[]): Promise<void> {
  try {
    await commit(batch.length === 1 ? batch[0].statements : batch.flatMap((entry) => entry.statements), { durable: batch.some((entry) => entry.durable) });
    for (const entry of batch) entry.resolve();
  } catch (error) {
    if (batch.length === 1) return batch[0].reject(error);
    for (const entry of batch) {
      try {
        await commit(entry.statements, { durable: entry.durable });
        entry.resolve();
      } catch (alone) {
        entry.reject(alone);
      }
    }
  }
}
