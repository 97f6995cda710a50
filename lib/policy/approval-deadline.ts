import type { ApprovalPolicy } from "../manifest/browser";

/** When a call that started waiting at `since` is denied for want of a decision. */
export function approvalDeadline(since: Date, policy: Pick<ApprovalPolicy, "timeoutHours">): Date {
  return new Date(since.getTime() + policy.timeoutHours * 3_600_000);
}

/**
 * The waiting calls whose deadline has passed at `now`: pure, so the sweep
 * that denies them is tested with a fake clock.
 */
export function expiredWaits<T extends { deadline: string }>(waits: readonly T[], now: Date): T[] {
  return waits.filter((wait) => new Date(wait.deadline).getTime() <= now.getTime());
}
