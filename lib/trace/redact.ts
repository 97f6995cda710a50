/**
 * Replaces every occurrence of a secret value in a value (deeply, in
 * strings and keys) with a marker, before anything is written to a trace or
 * a log. Secrets shorter than 4 characters are not searched for: they would
 * redact ordinary text and protect nothing.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  // Most runs have no secret: every step and event passes here.
  if (secrets.length === 0) return value;
  const needles = [...new Set(secrets.filter((secret) => secret.length >= 4))].sort((a, b) => b.length - a.length);
  if (needles.length === 0) return value;
  const redactText = (text: string) => needles.reduce((current, needle) => current.split(needle).join("[redacted]"), text);
  const walk = (current: unknown): unknown => {
    if (typeof current === "string") return redactText(current);
    if (Array.isArray(current)) return current.map(walk);
    if (current !== null && typeof current === "object") {
      return Object.fromEntries(Object.entries(current).map(([key, item]) => [redactText(key), walk(item)]));
    }
    return current;
  };
  return walk(value) as T;
}

/** A sink wrapper: every event passes through redaction first. */
export function redactingSink<S extends object>(sink: S, secrets: () => readonly string[]): S {
  return new Proxy(sink, {
    get(target, property, receiver) {
      const member = Reflect.get(target, property, receiver);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => member.apply(target, args.map((arg) => redactSecrets(arg, secrets())));
    },
  });
}
