import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../generated/prisma/client";
import { databaseUrl } from "./database-url";

/**
 * A new Prisma client on the SQLite database named by `DATABASE_URL`
 * (default `file:./data/switchboard.db`). Not server-only, so scripts can use
 * it; the app goes through the singleton in `./client`.
 */
export function createPrismaClient(url: string = databaseUrl()): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

export type { PrismaClient };
