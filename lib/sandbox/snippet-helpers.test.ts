import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./sandbox";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(() => sandbox.dispose());

describe("helpers every snippet has", () => {
  it("sha256(text) is the hex digest of the string's UTF-8 bytes", async () => {
    const text = "photos/2026/ä.png|1024|2026-06-27";
    expect(await sandbox.evaluate("return sha256(key).substring(0, 12)", { key: text })).toBe(createHash("sha256").update(text).digest("hex").slice(0, 12));
  });

  it("sha256 of anything but a string is a TypeError the snippet can catch", async () => {
    expect(await sandbox.evaluate("try { return sha256({ toString() { return 'x' } }) } catch (e) { return e.name + ': ' + e.message }", {})).toBe("TypeError: sha256() takes a string");
  });
});
