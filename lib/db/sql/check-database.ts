import { openSqlDatabase, isPostgresUrl } from "./open-database";

/**
 * Whether a worker can use this database: it answers, and it has the run
 * tables (migrated). Null when it can; else one line saying what is wrong
 * and what to do. Never throws.
 */
export async function checkRunDatabase(url: string): Promise<string | null> {
  const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
  let db;
  try {
    db = openSqlDatabase(url);
  } catch (error) {
    return `cannot open the database ${shown}: ${firstLine(error)}`;
  }
  try {
    await db.query(`SELECT 1 AS "ok"`);
  } catch (error) {
    await db.close().catch(() => undefined);
    return `cannot reach the database ${shown}: ${firstLine(error)}`;
  }
  try {
    await db.query(`SELECT "key" FROM "RunStep" LIMIT 1`);
    await db.query(`SELECT "leaseExpiresAt" FROM "Run" LIMIT 1`);
    return null;
  } catch {
    const how = isPostgresUrl(url) ? "`npm run db:migrate`" : "`npm start` once (it migrates) or `npm run db:migrate`";
    return `the database ${shown} is not migrated (no run journal tables); run ${how} first`;
  } finally {
    await db.close().catch(() => undefined);
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return message.split("\n")[0];
}
