import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt from node:crypto: N=2^15, r=8, p=1 (32 MiB
 * and tens of milliseconds per hash), a 16-byte random salt and a 32-byte
 * key. The parameters are stored with each hash, so they can be raised
 * later without locking anyone out.
 */
const parameters = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;

/** Passwords shorter than this are refused when set. */
export const minimumPasswordLength = 10;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$<N>$<r>$<p>$<salt>$<key>`, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, parameters);
  return ["scrypt", parameters.N, parameters.r, parameters.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Compares in constant time; a malformed stored hash is a mismatch, never a throw. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Number.isInteger(options.N) || !Number.isInteger(options.r) || !Number.isInteger(options.p) || expected.length !== keyLength) return false;
  const actual = await derive(password, Buffer.from(salt, "base64url"), options);
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password with the same parameters: checking a sign-in
 * for an unknown email against it costs the same work as for a known one,
 * so the answer's timing does not tell which emails have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummy;
}

/** Why a new password is refused, or null when it will do. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < minimumPasswordLength) return `Use at least ${minimumPasswordLength} characters for the password.`;
  if (password.length > 200) return "Keep the password under 200 characters.";
  if (new Set(password).size < 4) return "That password repeats too few characters; choose one that is harder to guess.";
  if (email && password.toLowerCase() === email.toLowerCase()) return "The password cannot be the email address.";
  return null;
}
