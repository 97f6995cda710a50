import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSecretKey, SecretBox, SecretError, secretKeyFile } from "./secrets";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "switchboard-key-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("the secret key", () => {
  it("is generated on first use into a key file with mode 0600, then read back", () => {
    const keyFile = path.join(folder, "data", "secret.key");
    const first = loadSecretKey({ environment: {}, keyFile });
    expect(first.origin).toBe("new-key-file");
    expect(first.key).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64").equals(first.key)).toBe(true);
    const second = loadSecretKey({ environment: {}, keyFile });
    expect(second).toMatchObject({ origin: "key-file" });
    expect(second.key.equals(first.key)).toBe(true);
  });

  it("comes from SWITCHBOARD_SECRET_KEY when set, and no file is written", () => {
    const key = Buffer.alloc(32, 7);
    const keyFile = path.join(folder, "secret.key");
    const loaded = loadSecretKey({ environment: { SWITCHBOARD_SECRET_KEY: key.toString("base64") }, keyFile });
    expect(loaded.origin).toBe("environment");
    expect(loaded.key.equals(key)).toBe(true);
    expect(() => statSync(keyFile)).toThrow();
  });

  it("refuses a key that is not 32 bytes of base64, saying how to make one", () => {
    for (const value of ["short", Buffer.alloc(16).toString("base64"), "not base64 at all!!"]) {
      expect(() => loadSecretKey({ environment: { SWITCHBOARD_SECRET_KEY: value } })).toThrow(/SWITCHBOARD_SECRET_KEY must hold 32 random bytes in base64 \(make one with `openssl rand -base64 32`\)/);
    }
    const keyFile = path.join(folder, "secret.key");
    writeFileSync(keyFile, "garbage\n");
    expect(() => loadSecretKey({ environment: {}, keyFile })).toThrow(SecretError);
  });

  it("lives at data/secret.key unless SWITCHBOARD_SECRET_KEY_FILE moves it", () => {
    expect(secretKeyFile({})).toBe(path.resolve("data", "secret.key"));
    expect(secretKeyFile({ SWITCHBOARD_SECRET_KEY_FILE: "/etc/switchboard/key" })).toBe("/etc/switchboard/key");
  });
});

describe("SecretBox", () => {
  const box = new SecretBox(Buffer.alloc(32, 1));

  it("round-trips a value, with a fresh nonce each time and no plaintext in the sealed text", () => {
    const first = box.seal("ghp_plaintext_token", "node-credential:github:github");
    const second = box.seal("ghp_plaintext_token", "node-credential:github:github");
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(first).not.toContain("ghp_plaintext_token");
    expect(box.open(first, "node-credential:github:github")).toBe("ghp_plaintext_token");
  });

  it("does not open for another context, another key, or an altered value", () => {
    const sealed = box.seal("value", "a");
    expect(() => box.open(sealed, "b")).toThrow(/cannot be decrypted/);
    expect(() => new SecretBox(Buffer.alloc(32, 2)).open(sealed, "a")).toThrow(SecretError);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other").toString("base64url");
    expect(() => box.open(parts.join("."), "a")).toThrow(SecretError);
    expect(() => box.open("plaintext", "a")).toThrow(/not a sealed secret/);
  });
});
