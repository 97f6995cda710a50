/** What a redacted header's value reads. */
export const redacted = "[redacted]";

const secretHeaderNames = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "stripe-signature", "x-hub-signature", "x-hub-signature-256"]);
const secretWords = /token|secret|key|signature|auth|password|session|cookie|credential/i;

/**
 * A request's headers as a plain object (lower-case names), with every value
 * that may be a secret replaced by "[redacted]": Authorization, Cookie, the
 * signature headers, and any header whose name speaks of a token, secret,
 * key, signature, auth, password, session or credential. What is left may
 * reach a run's outputs, its trace and a model.
 *
 * @example
 * redactHeaders(new Headers({ Authorization: "Bearer x", "X-GitHub-Event": "push" }))
 * // { authorization: "[redacted]", "x-github-event": "push" }
 */
export function redactHeaders(headers: Headers): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = secretHeaderNames.has(name) || secretWords.test(name) ? redacted : value;
  });
  return plain;
}
