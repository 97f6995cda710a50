import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma-postgres/client";
import { databaseUrl } from "./database-url";
import { resilientPool } from "./sql/postgres-pool";
import { sqlitePragmas } from "./sql/sqlite-pragmas";

/**
 * A new Prisma client on the database named by `DATABASE_URL` (default
 * `file:./data/switchboard.db`): SQLite for a file, Postgres for a
 * `postgresql://` URL (the client generated from prisma/postgres/schema.prisma,
 * which has the same models, so the same type serves both). Not server-only,
 * so scripts can use it; the app goes through the singleton in `./client`.
 */
export function createPrismaClient(url: string = databaseUrl()): PrismaClient {
  if (/^postgres(ql)?:\/\//i.test(url)) {
    // Its own pool, so a dropped connection is dropped, not a crash of the process (see ./sql/postgres-pool).
    const client = new PostgresPrismaClient({ adapter: new PrismaPg(resilientPool({ connectionString: url }), { disposeExternalPool: true }) }) as unknown as PrismaClient;
    postgresClients.add(client);
    return client;
  }
  return new PrismaClient({ adapter: new TunedSqliteAdapter({ url }) });
}

const postgresClients = new WeakSet<PrismaClient>();

/** Which database a client of createPrismaClient talks to, for the few reads written in each one's SQL. */
export function dialectOf(db: PrismaClient): "sqlite" | "postgres" {
  return postgresClients.has(db) ? "postgres" : "sqlite";
}

/** The better-sqlite3 adapter whose every connection first runs the app's SQLite pragmas (WAL, synchronous=NORMAL, busy_timeout). */
class TunedSqliteAdapter extends PrismaBetterSQLite3 {
  override async connect(): ReturnType<PrismaBetterSQLite3["connect"]> {
    const connection = await super.connect();
    await connection.executeScript(sqlitePragmas.map((pragma) => `PRAGMA ${pragma};`).join("\n"));
    return connection;
  }
}

export type { PrismaClient };
