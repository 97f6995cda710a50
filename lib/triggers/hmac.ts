import { createHmac, timingSafeEqual } from "node:crypto";

/** HMAC-SHA256 of the parts, concatenated, under the key. */
export function hmacSha256(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): Buffer {
  const hmac = createHmac("sha256", key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/**
 * True when the two strings are equal, in time that does not depend on where
 * they differ. Their lengths may leak, which is public here (a digest's
 * encoding has a fixed length).
 */
export function sameText(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
