import "server-only";
import { PrismaGrantStore } from "@/lib/db";
import { prisma } from "@/lib/db/app";

/** The app's store of workflow grants. */
export function grantStore(): PrismaGrantStore {
  return new PrismaGrantStore(prisma());
}
