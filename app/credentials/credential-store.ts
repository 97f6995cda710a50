import "server-only";
import { PrismaCredentialStore, prisma } from "@/lib/db";

/** The app's store of node credentials (values sealed at rest, never sent to a browser). */
export function credentialStore(): PrismaCredentialStore {
  return new PrismaCredentialStore(prisma());
}
