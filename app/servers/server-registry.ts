import "server-only";
import { PrismaServerRegistry, prisma } from "@/lib/db";

/** The app's MCP server registry: the database, checked on every read and write. */
export function serverRegistry(): PrismaServerRegistry {
  return new PrismaServerRegistry(prisma());
}
