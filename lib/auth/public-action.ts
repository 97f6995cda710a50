/**
 * Marks an exported server action or route that anyone may call, signed in
 * or not (signing in, the first owner's set-up, a webhook delivery that
 * proves itself by its signature), with the reason. A no-op at run time;
 * the role table (docs/security.md) lists the reason, and its test fails
 * for an entry point with neither this nor a role check. A file of its own,
 * importing nothing, so a route that needs no session loads none.
 */
export function publicAction(reason: string): void {
  void reason;
}
