export { combineScores, parseScorer, score, scoreAll, ScorerError, scorerKinds, withoutPaths, brief } from "./scorers";
export type { JudgeRequest, JudgeVerdict, Score, ScoreContext, Scorer, ScorerKind } from "./scorers";
export { judgeInstructions, judgePrompt, modelJudge, parseJudgeAnswer } from "./model-judge";
