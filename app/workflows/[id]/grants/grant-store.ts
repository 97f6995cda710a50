import "server-only";
import { PrismaGrantStore, prisma } from "@/lib/db";

/** The app's store of workflow grants. */
export function grantStore(): PrismaGrantStore {
  return new PrismaGrantStore(prisma());
}
