import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { postgresSchemaFrom } from "./postgres-schema";

const root = path.resolve(import.meta.dirname, "..", "..", "..");

describe("the Postgres schema", () => {
  it("is prisma/schema.prisma with the Postgres provider: run `npm run db:postgres-schema -- --name <change>` after changing the models", () => {
    const sqlite = readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8");
    const postgres = readFileSync(path.join(root, "prisma", "postgres", "schema.prisma"), "utf8");
    expect(postgres, "prisma/postgres/schema.prisma is out of date: run `npm run db:postgres-schema -- --name <change>`").toBe(postgresSchemaFrom(sqlite));
  });
});
