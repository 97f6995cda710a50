import type { OriginChange, OriginReview } from "./action-types";

/** One origin one node would send one credential to, waiting for an owner: one line of the notice. */
export interface OriginNoticeEntry {
  nodeId: string;
  nodeType: string;
  credential: string;
  origin: string;
  /** Where the node's calls went before the change (empty: an import, a new node, or a change from before the page was opened). */
  before: string[];
  after: string[];
  /** Where the credential may go from this workflow. */
  approved: string[];
}

export const noticeKey = (entry: Pick<OriginNoticeEntry, "nodeId" | "credential" | "origin">) => `${entry.nodeId}\u0000${entry.credential}\u0000${entry.origin}`;

/** The notice's lines for these changes: one per unapproved origin. */
export function noticeEntries(changes: readonly OriginChange[]): OriginNoticeEntry[] {
  return changes.flatMap((change) =>
    change.unapproved.map((origin) => ({ nodeId: change.nodeId, nodeType: change.nodeType, credential: change.credential, origin, before: change.before, after: change.after, approved: change.approved })),
  );
}

/**
 * The notice after a save: the lines of what still waits (others went: the
 * origin was approved or the edit undone), each change of this save, and
 * for a node already on the notice its first `before`, so typing a URL
 * letter by letter still reads "https://api.openai.com → https://attacker…".
 */
export function mergeOriginNotices(current: readonly OriginNoticeEntry[], review: OriginReview): OriginNoticeEntry[] {
  const firstBefore = new Map<string, string[]>();
  for (const entry of current) if (!firstBefore.has(`${entry.nodeId}\u0000${entry.credential}`)) firstBefore.set(`${entry.nodeId}\u0000${entry.credential}`, entry.before);
  const lines = new Map<string, OriginNoticeEntry>();
  const pending = noticeEntries(review.pendingOrigins);
  const currentByKey = new Map(current.map((entry) => [noticeKey(entry), entry]));
  for (const entry of pending) lines.set(noticeKey(entry), { ...entry, before: currentByKey.get(noticeKey(entry))?.before ?? entry.before });
  for (const entry of noticeEntries(review.originChanges)) {
    const before = firstBefore.get(`${entry.nodeId}\u0000${entry.credential}`);
    lines.set(noticeKey(entry), { ...entry, before: before && before.length ? before : entry.before });
  }
  return [...lines.values()];
}

/** After an owner approved `origin` for a credential: no node's line for it is waiting any more. */
export function withoutApproved(current: readonly OriginNoticeEntry[], nodeType: string, credential: string, origin: string): OriginNoticeEntry[] {
  return current.filter((entry) => !(entry.nodeType === nodeType && entry.credential === credential && entry.origin === origin));
}
