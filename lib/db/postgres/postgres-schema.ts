/**
 * The Postgres Prisma schema is generated from prisma/schema.prisma (the
 * SQLite one, where models are added): same models, same fields, only the
 * datasource provider and the client's output folder differ. Prisma fixes the
 * provider per schema file, hence two files; this keeps them one source.
 */
export const postgresSchemaHeader = "// GENERATED from prisma/schema.prisma by `npm run db:postgres-schema`: do not edit; change prisma/schema.prisma and run it.\n";

export function postgresSchemaFrom(sqliteSchema: string): string {
  const replaced = sqliteSchema
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/output\s*=\s*"\.\.\/lib\/generated\/prisma"/, 'output          = "../../lib/generated/prisma-postgres"');
  if (!replaced.includes('"postgresql"') || !replaced.includes("prisma-postgres")) {
    throw new Error("prisma/schema.prisma no longer has the sqlite provider or the ../lib/generated/prisma output this generator rewrites; update lib/db/postgres/postgres-schema.ts");
  }
  return postgresSchemaHeader + replaced;
}
