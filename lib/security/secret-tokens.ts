import { createHash, randomBytes } from "node:crypto";

/** A new random secret: `<prefix>` + 32 random bytes, base64url (256 bits). */
export function newSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

/** What is stored for a secret with 256 bits of entropy: its SHA-256 (hex). A slow hash adds nothing here. */
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Shorter tokens are refused: they can be guessed. */
export const minimumTokenLength = 16;

/**
 * Why a token set by hand (SWITCHBOARD_MCP_TOKEN) is too weak, or null: at
 * least 16 characters, at least 8 different ones, and not a run of
 * consecutive characters ("abcdefghijklmnop", "0123456789012345").
 *
 * @example weakTokenReason("aaaaaaaaaaaaaaaa") // "it repeats too few different characters (1)…"
 */
export function weakTokenReason(token: string): string | null {
  if (token.length < minimumTokenLength) return `it is shorter than ${minimumTokenLength} characters`;
  const distinct = new Set(token).size;
  if (distinct < 8) return `it uses too few different characters (${distinct}; at least 8)`;
  let consecutive = 0;
  for (let index = 1; index < token.length; index++) if (Math.abs(token.charCodeAt(index) - token.charCodeAt(index - 1)) === 1) consecutive++;
  if (consecutive >= token.length - 3) return "it is a run of consecutive characters";
  return null;
}
