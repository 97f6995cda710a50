import { normalEmail, type PrismaAccounts, type UserRecord } from "../db/accounts";
import { FailureLimiter } from "./failure-limiter";
import { dummyPasswordHash, verifyPassword } from "./passwords";

/** The one answer to a wrong email or a wrong password: it does not say which. */
export const wrongSignIn = "That email and password do not match an account. Check both and try again.";

/** 10 wrong passwords for one email in 15 minutes, then that email waits (known and unknown emails alike). */
const signInFailures = new FailureLimiter(10, 15 * 60 * 1000);

export type SignInResult = { ok: true; user: UserRecord } | { ok: false; error: string };

/**
 * Checks an email and password. An unknown email is checked against a
 * dummy hash with the same scrypt parameters, so it takes the same work and
 * gets the same message as a wrong password.
 */
export async function checkSignIn(accounts: PrismaAccounts, email: string, password: string): Promise<SignInResult> {
  const key = normalEmail(email);
  const wait = signInFailures.retryAfterSeconds(key);
  if (wait > 0) return { ok: false, error: `Too many wrong attempts for this email; try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""}.` };
  const found = await accounts.findForSignIn(key);
  // An account made by single sign-on has no password hash: it is checked against the dummy too, so it costs the same and never matches.
  const usable = found?.passwordHash.startsWith("scrypt$") ? found.passwordHash : null;
  const matches = (await verifyPassword(password, usable ?? (await dummyPasswordHash()))) && usable !== null;
  if (!found || !matches) {
    if (signInFailures.fail(key)) console.warn(`sign-in: ${signInFailures.limit} wrong attempts for one email within 15 minutes; that email waits`);
    return { ok: false, error: wrongSignIn };
  }
  const { passwordHash, ...user } = found;
  void passwordHash;
  return { ok: true, user };
}
