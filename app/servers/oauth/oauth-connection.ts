import "server-only";
import { PrismaOAuthStateStore } from "@/lib/db";
import { prisma } from "@/lib/db/app";

/** The HttpOnly cookie binding an authorization in progress to the browser that started it: `<serverId>.<state>`. */
export const oauthStateCookie = "sb_oauth_state";

/** A one-off note for /servers after the callback (what happened, in words; never a token). */
export const oauthResultCookie = "sb_oauth_result";

/** The servers' OAuth state in the database, sealed; `actor` is recorded as who connected. */
export function oauthStore(actor?: string): PrismaOAuthStateStore {
  return new PrismaOAuthStateStore(prisma(), actor ? { actor } : {});
}
