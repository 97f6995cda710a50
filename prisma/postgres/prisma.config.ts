import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// The Postgres side (scale-out mode): its schema is generated from prisma/schema.prisma
// (npm run db:postgres-schema). Prisma 6 with the JavaScript schema engine, like the SQLite side.
const url = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : "postgresql://postgres@127.0.0.1:5432/postgres";
process.env.DATABASE_URL = url;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  adapter: async () => new PrismaPg({ connectionString: url }),
});
