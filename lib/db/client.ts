import "server-only";
import { createPrismaClient, type PrismaClient } from "./create-client";

// One client per server process. Kept on globalThis so `next dev`'s module
// reloads do not open a new SQLite connection on every edit.
const holder = globalThis as typeof globalThis & { switchboardPrisma?: PrismaClient };

/** The app's shared Prisma client (server only). */
export function prisma(): PrismaClient {
  holder.switchboardPrisma ??= createPrismaClient();
  return holder.switchboardPrisma;
}
