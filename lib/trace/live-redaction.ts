import { redactSecrets } from "./redact";

/**
 * Redaction for text that goes out in pieces while it is written (a chat's
 * streamed answer). A secret may be split across two pieces, so the last
 * characters that could still be the start of one are held back until the
 * next piece shows what they are. Everything handed on is redacted, and
 * joined it is the start of `redactSecrets(whole text)`: the turn as the
 * journal records it, whose rest a follower shows when the turn is recorded.
 *
 * @example
 * const redact = liveRedactor(() => ["sk-live-123456"]);
 * redact("key: sk-li"); // "key: " (the rest could be the secret)
 * redact("ve-123456."); // "[redacted]."
 */
export function liveRedactor(secrets: () => Iterable<string>): (piece: string) => string {
  // The text not handed on yet. Every cut so far ended no secret part-way, so the pieces redact on their own.
  let pending = "";
  return (piece) => {
    pending += piece;
    const needles = [...new Set([...secrets()].filter((secret) => secret.length >= 4))];
    if (needles.length === 0) {
      const out = pending;
      pending = "";
      return out;
    }
    const longest = Math.max(...needles.map((needle) => needle.length));
    // Text before the cut cannot be the start of a secret still arriving; a secret the cut would split moves it past its end.
    let cut = Math.max(0, pending.length - (longest - 1));
    for (const needle of needles) {
      for (let at = pending.indexOf(needle); at !== -1 && at < cut; at = pending.indexOf(needle, at + 1)) {
        if (at + needle.length > cut) cut = at + needle.length;
      }
    }
    const out = redactSecrets(pending.slice(0, cut), needles);
    pending = pending.slice(cut);
    return out;
  };
}
