import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, fchmodSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * Secrets at rest: AES-256-GCM with a 96-bit random nonce per value and a
 * context string as additional authenticated data, so a sealed value only
 * opens for the record it was written for (copying it to another row, or
 * editing what it is bound to, makes it unreadable instead of usable).
 *
 * The key comes from SWITCHBOARD_SECRET_KEY (32 bytes, base64) or, when that
 * is unset, from a key file created on first use (data/secret.key, mode
 * 0600; SWITCHBOARD_SECRET_KEY_FILE moves it). Losing the key loses every
 * stored secret: they cannot be decrypted without it.
 */

export const secretKeyLength = 32;
const nonceLength = 12;
const tagLength = 16;
const format = "v1";

export type SecretErrorCode = "secret-key-invalid" | "secret-unreadable";

/** The key is missing or malformed (the operator's to fix), or a sealed value does not open. */
export class SecretError extends Error {
  override name = "SecretError";
  constructor(
    readonly code: SecretErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface SecretKeySource {
  /** Where SWITCHBOARD_SECRET_KEY and SWITCHBOARD_SECRET_KEY_FILE are read (default process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The key file, overriding the environment (tests). */
  keyFile?: string;
}

export interface LoadedKey {
  key: Buffer;
  /** Where it came from: the environment variable, an existing key file, or a key file created now. */
  origin: "environment" | "key-file" | "new-key-file";
  file?: string;
}

/** The key file's path: SWITCHBOARD_SECRET_KEY_FILE, else data/secret.key under the working directory. */
export function secretKeyFile(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  // The key file is read at run time, never bundled: tell Turbopack not to trace it.
  return path.resolve(/* turbopackIgnore: true */ environment.SWITCHBOARD_SECRET_KEY_FILE || path.join("data", "secret.key"));
}

/** Reads the key from the environment, else from the key file, creating that file (0600) the first time. */
export function loadSecretKey(source: SecretKeySource = {}): LoadedKey {
  const environment = source.environment ?? process.env;
  const fromEnvironment = environment.SWITCHBOARD_SECRET_KEY;
  if (fromEnvironment) return { key: decodeKey(fromEnvironment, "SWITCHBOARD_SECRET_KEY"), origin: "environment" };
  const file = source.keyFile ?? secretKeyFile(environment);
  const created = createKeyFile(file);
  if (created) return { key: created, origin: "new-key-file", file };
  let text: string;
  try {
    text = readFileSync(/* turbopackIgnore: true */ file, "utf8");
  } catch (error) {
    throw new SecretError("secret-key-invalid", `the secret key file ${file} cannot be read (${(error as Error).message})`, { cause: error });
  }
  return { key: decodeKey(text.trim(), `the key file ${file}`), origin: "key-file", file };
}

/** Writes a new random key, only if no file exists (two processes starting at once agree on one key). */
function createKeyFile(file: string): Buffer | null {
  let descriptor: number;
  try {
    mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true, mode: 0o700 });
    descriptor = openSync(/* turbopackIgnore: true */ file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw new SecretError("secret-key-invalid", `cannot create the secret key file ${file} (${(error as Error).message}); set SWITCHBOARD_SECRET_KEY instead`, { cause: error });
  }
  const key = randomBytes(secretKeyLength);
  try {
    fchmodSync(descriptor, 0o600);
    writeSync(descriptor, `${key.toString("base64")}\n`);
  } finally {
    closeSync(descriptor);
  }
  return key;
}

function decodeKey(text: string, where: string): Buffer {
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, "base64") : Buffer.alloc(0);
  if (key.length !== secretKeyLength) {
    throw new SecretError(
      "secret-key-invalid",
      `${where} must hold ${secretKeyLength} random bytes in base64 (make one with \`openssl rand -base64 32\`); it holds ${key.length ? `${key.length} bytes` : "no valid base64"}`,
    );
  }
  return key;
}

/**
 * Seals and opens secret values with one key. `context` names what the value
 * belongs to (e.g. `mcp-server-secret:github:TOKEN`) and must be the same to open it.
 *
 *   const box = new SecretBox(loadSecretKey().key);
 *   const sealed = box.seal("ghp_…", "node-credential:github:github");
 *   box.open(sealed, "node-credential:github:github"); // "ghp_…"
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== secretKeyLength) throw new SecretError("secret-key-invalid", `a secret key must be ${secretKeyLength} bytes, not ${key.length}`);
    this.#key = Buffer.from(key);
  }

  seal(plaintext: string, context: string): string {
    const nonce = randomBytes(nonceLength);
    const cipher = createCipheriv("aes-256-gcm", this.#key, nonce, { authTagLength: tagLength });
    cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [format, nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split(".");
    if (parts.length !== 4 || parts[0] !== format) throw new SecretError("secret-unreadable", "the stored value is not a sealed secret");
    const [nonce, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url"));
    if (nonce.length !== nonceLength || tag.length !== tagLength) throw new SecretError("secret-unreadable", "the stored value is not a sealed secret");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, nonce, { authTagLength: tagLength });
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    } catch (error) {
      throw new SecretError(
        "secret-unreadable",
        "the stored value cannot be decrypted: the secret key changed, or the value or what it belongs to was altered",
        { cause: error },
      );
    }
  }
}

// One box per process, kept on globalThis so `next dev` reloads do not re-read the key.
const holder = globalThis as typeof globalThis & { switchboardSecretBox?: SecretBox };

/** The process's SecretBox, its key loaded (or the key file created) on first use. */
export function secretBox(): SecretBox {
  holder.switchboardSecretBox ??= new SecretBox(loadSecretKey().key);
  return holder.switchboardSecretBox;
}
