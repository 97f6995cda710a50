import "server-only";
import { PrismaCredentialStore } from "@/lib/db";
import { prisma } from "@/lib/db/app";

/** The app's store of node credentials (values sealed at rest, never sent to a browser). */
export function credentialStore(): PrismaCredentialStore {
  return new PrismaCredentialStore(prisma());
}
