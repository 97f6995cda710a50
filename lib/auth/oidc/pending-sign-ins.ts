import { type PendingSignIn, pendingLifetimeMs } from "./oidc";

/**
 * The sign-ins under way: kept on the server by their state for 10 minutes,
 * each taken once. The browser holds only the state, in an httpOnly cookie
 * (`oidcStateCookie`), so a callback whose state is not that browser's own
 * is refused (login CSRF) and the verifier and nonce never leave the server.
 */
export const oidcStateCookie = "switchboard_oidc_state";
/** Why the last single sign-on failed, for the sign-in page to say (2 minutes, httpOnly). */
export const oidcErrorCookie = "switchboard_sso_error";

interface Entry {
  pending: PendingSignIn;
  redirectUri: string;
}

const holder = globalThis as { switchboardPendingSignIns?: Map<string, Entry> };
const pendingSignIns = (holder.switchboardPendingSignIns ??= new Map());
const maxPending = 1000;

export function keepPendingSignIn(entry: Entry, now = Date.now()): void {
  for (const [state, kept] of pendingSignIns) if (now - kept.pending.createdAt > pendingLifetimeMs) pendingSignIns.delete(state);
  // A flood of started sign-ins drops the oldest, never grows without bound.
  while (pendingSignIns.size >= maxPending) pendingSignIns.delete(pendingSignIns.keys().next().value!);
  pendingSignIns.set(entry.pending.state, entry);
}

/** The sign-in this state started, once (a second callback with the same state finds nothing). */
export function takePendingSignIn(state: string | undefined): Entry | null {
  if (!state) return null;
  const entry = pendingSignIns.get(state) ?? null;
  pendingSignIns.delete(state);
  return entry;
}
