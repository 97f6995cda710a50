import type { ModelProtocol } from "../ai";
import type { JudgeRequest, JudgeVerdict } from "./scorers";

/** What the judge model is told, before the rubric. */
export const judgeInstructions = [
  "You grade the output of an AI workflow against a rubric.",
  "Answer with one JSON object and nothing else: {\"score\": <a number from 0 to 1>, \"reason\": \"<one sentence>\"}.",
  "1 means the output fully meets the rubric, 0 means it does not meet it at all.",
].join("\n");

/** The judge's question: the rubric, the output and, when there is one, the expected output. */
export function judgePrompt(request: JudgeRequest): string {
  const parts = [`Rubric:\n${request.rubric}`, `Output:\n${asText(request.actual)}`];
  if (request.expected !== undefined) parts.push(`Expected output (for reference):\n${asText(request.expected)}`);
  return parts.join("\n\n");
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/**
 * A judge that asks a model protocol (an agent node's model, resolved the
 * way the node would resolve it, with the node's config) one question with
 * no tools, and reads a 0-1 score from its answer.
 *
 * @example const judge = modelJudge(resolveModel(request)); await score({ kind: "judge", rubric, threshold: 0.7 }, actual, expected, { judge })
 */
export function modelJudge(protocol: ModelProtocol, config: Record<string, unknown> = {}): (request: JudgeRequest) => Promise<JudgeVerdict> {
  return async (request) => {
    // The node's config goes along: a declarative protocol renders its request (base URL, model) from it.
    const conversation = await protocol.start({ instructions: judgeInstructions, config, inputs: { prompt: judgePrompt(request) } });
    const turn = await conversation.turn([]);
    return parseJudgeAnswer(turn.text);
  };
}

/**
 * Reads a judge's answer: a JSON object with `score` (and `reason`), else
 * "score: 0.8" in prose, else a lone number. A score written out of 10 or
 * 100 ("8/10", "80%") is scaled to 0..1. An answer with no score throws.
 */
export function parseJudgeAnswer(text: string): JudgeVerdict {
  const json = text.match(/\{[\s\S]*\}/);
  if (json) {
    try {
      const parsed = JSON.parse(json[0]) as { score?: unknown; reason?: unknown };
      const value = typeof parsed.score === "number" ? parsed.score : typeof parsed.score === "string" ? Number(parsed.score) : NaN;
      if (Number.isFinite(value)) return { score: scaled(value, ""), reason: typeof parsed.reason === "string" ? parsed.reason : text.trim() };
    } catch {
      // not JSON after all: read it as prose below
    }
  }
  const labelled = text.match(/score\D{0,5}?(\d+(?:\.\d+)?)\s*(%|\/\s*10\b|\/\s*100\b)?/i) ?? text.match(/(?<![\w.])(\d+(?:\.\d+)?)\s*(%|\/\s*10\b|\/\s*100\b)?/);
  if (!labelled) throw new Error(`the judge's answer has no score: ${JSON.stringify(text.slice(0, 200))}`);
  return { score: scaled(Number(labelled[1]), labelled[2] ?? ""), reason: text.trim() };
}

function scaled(value: number, unit: string): number {
  const compact = unit.replace(/\s/g, "");
  const divided = compact === "%" || compact === "/100" ? value / 100 : compact === "/10" ? value / 10 : value > 1 && value <= 10 ? value / 10 : value > 10 ? value / 100 : value;
  return Math.min(1, Math.max(0, divided));
}
