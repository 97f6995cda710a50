import "server-only";
import { PrismaAccounts, type UserRecord } from "@/lib/db";
import { prisma } from "@/lib/db/app";
import { newSecret, secretHash } from "../security";

/** The session cookie: a random id; the database keeps only its SHA-256. */
export const sessionCookieName = "switchboard_session";

/** A session lasts 14 days from sign-in; signing in again starts a new one. */
export const sessionLifetimeMs = 14 * 24 * 60 * 60 * 1000;

/** The app's accounts store on the shared client. */
export function accounts(): PrismaAccounts {
  return new PrismaAccounts(prisma());
}

/** Starts a session for the person: the cookie's value and when it expires. */
export async function startSession(userId: string, now = new Date()): Promise<{ value: string; expiresAt: Date }> {
  const value = newSecret();
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
  await accounts().createSession({ idHash: secretHash(value), userId, expiresAt });
  return { value, expiresAt };
}

/**
 * The person a session cookie belongs to, or null: unknown, expired, or
 * started before the person's last password change (that change signed
 * them out everywhere; such a row is also deleted then, this is the second lock).
 */
export async function sessionUser(value: string | undefined, now = new Date()): Promise<UserRecord | null> {
  if (!value || value.length > 200) return null;
  const session = await accounts().findSession(secretHash(value));
  if (!session) return null;
  if (session.expiresAt <= now || session.createdAt < session.user.passwordChangedAt) {
    await accounts().deleteSession(secretHash(value));
    return null;
  }
  return session.user;
}

export async function endSession(value: string | undefined): Promise<void> {
  if (value) await accounts().deleteSession(secretHash(value));
}
