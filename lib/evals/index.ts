/**
 * lib/evals's public surface: scorers and the model judge, test cases and
 * their pins, the cassette a test run answers from, a case's verdict,
 * datasets and the evaluation loop, and the JUnit report. Components take
 * only types from here (the cassette and the pin use node:crypto).
 */
export { caseVerdict, missingNodes, type CaseVerdict } from "./case-verdict";
export { cassetteEnvironment, cassetteStepKey, type StoredCassette } from "./cassette-environment";
export { DatasetRowError, datasetFormatOf, readDatasetRows, type DatasetFormat, type DatasetRow } from "./dataset-rows";
export { runEvaluationLoop, type EndedRowRun, type EvaluationPorts, type PendingRow } from "./evaluation-loop";
export { summarizeEvaluation, type EvaluationSummary } from "./evaluation-summary";
export { junitReport } from "./junit";
export { judgeInstructions, judgePrompt, modelJudge, parseJudgeAnswer } from "./model-judge";
export { PinError, pinRun, type PinSource } from "./pin-run";
export type { RowScore } from "./row-score";
export { brief, combineScores, parseScorer, score, scoreAll, ScorerError, scorerKinds, withoutPaths } from "./scorers";
export type { JudgeRequest, JudgeVerdict, Score, ScoreContext, Scorer, ScorerKind } from "./scorers";
export { TestCaseError, caseFileName, caseFileText, parseTestCase, type TestCase } from "./test-case";
