import type { QuestionField } from "@/lib/questions/question-fields";

/** One waiting question as the browser gets it: who asked, what, and the fields to answer it with. */
export interface QuestionView {
  questionId: string;
  runId: string;
  server: string;
  tool: string;
  caller: string;
  since: string;
  deadline: string;
  message: string;
  mode: "form" | "url";
  /** URL mode: the page the tool asks the person to open. */
  url?: string;
  /** Form mode: the fields generated from the requested schema. */
  fields: QuestionField[];
}

export type AnswerSubmission = { action: "accept"; values?: Record<string, string | string[]> } | { action: "decline" } | { action: "cancel" };

export type AnswerQuestionAction = (questionId: string, answer: AnswerSubmission) => Promise<{ ok: true } | { ok: false; error: string; fields?: Record<string, string> }>;
