/**
 * Who decides a waiting call, as the actor string the journal and the trace
 * record. The one seam for authorization: until accounts exist (issue 10)
 * a decision from the app is "app" (or the name the form gives) and one
 * from the command line is "cli:<OS user>"; when lib/auth lands, app/ calls
 * `authorize(actor, "approve", run)` next to this and passes the person's id.
 */
export function decisionActor(source: { cli?: string; app?: string }): string {
  if (source.app !== undefined) return source.app.trim() || "app";
  return source.cli?.trim() || `cli:${process.env.USER ?? "unknown"}`;
}
