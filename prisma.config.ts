import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl, ensureDatabaseFolder } from "./lib/db/database-url";

// The schema's datasource reads DATABASE_URL; without it Prisma falls back to
// defaults that try to download a query engine. Fill it before anything runs.
process.env.DATABASE_URL ??= databaseUrl();
ensureDatabaseFolder();

// Prisma 6 with the JavaScript schema engine: no engine binary is downloaded.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaBetterSQLite3({ url: databaseUrl() }),
});
