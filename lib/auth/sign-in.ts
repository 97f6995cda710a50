import { normalEmail, type PrismaAccounts, type UserRecord } from "../db";
import { appSignInLimits } from "./app-rate-limits";
import { dummyPasswordHash, verifyPassword } from "./passwords";
import type { SignInLimits, SignInWait } from "./rate-limits";

/** The one answer to a wrong email or a wrong password: it does not say which. */
export const wrongSignIn = "That email and password do not match an account. Check both and try again.";

export type SignInResult = { ok: true; user: UserRecord } | { ok: false; error: string };

/** Where the attempt comes from (the client's address, see ./client-address.ts) and the limits it meets (the app's by default). */
export interface SignInSource {
  address: string;
  limits?: SignInLimits;
}

/**
 * Checks an email and password. An unknown email is checked against a
 * dummy hash with the same scrypt parameters, so it takes the same work and
 * gets the same message as a wrong password. Wrong attempts are slowed, not
 * locked out: past five for one email from one address, that pair waits
 * (doubling, at most a minute) before its next password is checked; an
 * address with 30 wrong attempts in 15 minutes, whatever the emails, waits
 * for the rest of them. Another address is never held up by these.
 */
export async function checkSignIn(accounts: PrismaAccounts, email: string, password: string, source: SignInSource): Promise<SignInResult> {
  const key = normalEmail(email);
  const limits = source.limits ?? appSignInLimits();
  const wait = await limits.wait(key, source.address);
  if (wait) return { ok: false, error: waitMessage(wait) };
  const found = await accounts.findForSignIn(key);
  // An account made by single sign-on has no password hash: it is checked against the dummy too, so it costs the same and never matches.
  const usable = found?.passwordHash.startsWith("scrypt$") ? found.passwordHash : null;
  const matches = (await verifyPassword(password, usable ?? (await dummyPasswordHash()))) && usable !== null;
  if (!found || !matches) {
    const failures = await limits.failed(key, source.address);
    if (failures === 6) console.warn(`sign-in: wrong attempts for one email from ${source.address}; that address now waits between attempts for it`);
    return { ok: false, error: wrongSignIn };
  }
  await limits.succeeded(key, source.address);
  const { passwordHash, ...user } = found;
  void passwordHash;
  return { ok: true, user };
}

function waitMessage(wait: NonNullable<SignInWait>): string {
  const when = wait.seconds < 120 ? `${wait.seconds} second${wait.seconds === 1 ? "" : "s"}` : `${Math.ceil(wait.seconds / 60)} minutes`;
  return wait.because === "source"
    ? `Too many wrong sign-ins from your address; try again in ${when}.`
    : `Too many wrong attempts for this email from your address; try again in ${when}.`;
}
