import "server-only";
import { PrismaServerRegistry } from "@/lib/db";
import { prisma } from "@/lib/db/app";

/** The app's MCP server registry: the database, checked on every read and write. */
export function serverRegistry(): PrismaServerRegistry {
  return new PrismaServerRegistry(prisma());
}
