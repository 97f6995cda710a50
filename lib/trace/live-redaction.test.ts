import { describe, expect, it } from "vitest";
import { liveRedactor } from "./live-redaction";
import { redactSecrets } from "./redact";

describe("live redaction", () => {
  it("never hands on a secret split across pieces, and what it hands on starts the redacted whole", () => {
    const secrets = ["sk-live-0123456789", "hunter22"];
    const whole = "Your key is sk-live-0123456789 and the password hunter22; again sk-live-0123456789.";
    for (let size = 1; size <= 12; size++) {
      const redact = liveRedactor(() => secrets);
      let sent = "";
      const recorded = redactSecrets(whole, secrets);
      for (let at = 0; at < whole.length; at += size) {
        sent += redact(whole.slice(at, at + size));
        // At every moment: no part of a secret has gone out, since the recorded text has "[redacted]" where a secret was.
        expect(recorded.startsWith(sent)).toBe(true);
      }
      expect(sent).not.toContain("0123456789");
      expect(sent).not.toContain("hunter22");
      // Only the tail that could still begin a secret is held back.
      expect(recorded.length - sent.length).toBeLessThan("sk-live-0123456789".length);
    }
  });

  it("passes text through at once when the run knows no secret", () => {
    const redact = liveRedactor(() => []);
    expect(redact("Hello")).toBe("Hello");
    expect(redact(", world")).toBe(", world");
  });

  it("reads the secrets anew on every piece, as a run learns them", () => {
    const secrets: string[] = [];
    const redact = liveRedactor(() => secrets);
    expect(redact("first ")).toBe("first ");
    secrets.push("token-abcdef");
    expect(redact("then token-abcdef end") + redact(" more text here!")).not.toContain("token-abcdef");
  });
});
