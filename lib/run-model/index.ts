// The bottom floor of runs: the words every room uses for a run (statuses,
// how it started, the journal's keys). Imports nothing of ours.
export { isRunStatus, liveStatuses, runStatuses, settledStatuses, type RunEnd, type RunStatus } from "./run-status";
export {
  attemptKeys,
  decisionKey,
  decisionPattern,
  firstChoiceKey,
  keyOfDecision,
  keyOfWaiting,
  nodeRunKey,
  nodeIdOfTurn,
  nodeRunOfStepResult,
  notifiedKey,
  questionKey,
  questionWaitingPattern,
  stableId,
  stepResultKey,
  turnKey,
  waitingKey,
} from "./journal-keys";
export {
  endRunText,
  followRunText,
  hearRunFollowed,
  hearRunText,
  publishRunText,
  relayRunText,
  runsFollowedHere,
  runTextFollowed,
  type RunTextPiece,
  type RunTextPlace,
  type RunTextRelay,
} from "./run-text-feed";
export { describeRunOrigin, isRunOriginKind, parseRunOrigin, runOriginKinds, runOriginLabels, type RunOrigin, type RunOriginKind } from "./run-origin";
