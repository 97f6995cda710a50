import { defineRule, type Finding } from "../rule";

export const maxInstructionLines = 100;

export const instructionsTooLong = defineRule({
  id: "instructions-too-long",
  severity: "error",
  reads: ["interface"],
  summary: `A connector's \`instructions\` is under ${maxInstructionLines} lines: it is in the agent's prompt on every turn.`,
  check(node) {
    return (node.parts.interface?.serviceConnectors ?? []).flatMap((connector, index): Finding[] => {
      // A block scalar keeps its final newline; it does not start another line.
      const lines = connector.instructions?.replace(/\n+$/, "").split("\n").length ?? 0;
      if (lines < maxInstructionLines) return [];
      return [{ in: "interface", path: ["serviceConnectors", index, "instructions"], message: `instructions of '${connector.name}' is ${lines} lines; keep it under ${maxInstructionLines}: write the strategy between tools, not the tools` }];
    });
  },
});

const stopWords = new Set(["the", "and", "for", "with", "that", "this", "from", "into", "then", "when", "what", "your", "you", "its", "are", "use", "one", "all", "any", "returns", "return", "given", "each", "a", "an", "of", "to", "in", "on", "by", "or", "is", "it", "as", "be", "at"]);

function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2 && !stopWords.has(word)),
  );
}

/** The share of a description's content words that the instructions repeat. */
export function repeatedShare(description: string, instructions: Set<string>): number {
  const words = contentWords(description);
  if (words.size === 0) return 0;
  let repeated = 0;
  for (const word of words) if (instructions.has(word)) repeated++;
  return repeated / words.size;
}

export const instructionsRepeatDescriptions = defineRule({
  id: "instructions-repeat-descriptions",
  severity: "warning",
  reads: ["interface", "service"],
  summary: "`instructions` does not mostly repeat the tool descriptions: say how the tools work together, not what each does.",
  check(node) {
    const service = node.parts.service ?? {};
    return (node.parts.interface?.serviceConnectors ?? []).flatMap((connector, index): Finding[] => {
      if (!connector.instructions || !connector.isService) return [];
      const words = contentWords(connector.instructions);
      const descriptions = connector.methods.map((method) => service[method]?.description).filter((text): text is string => Boolean(text));
      if (descriptions.length === 0) return [];
      const repeated = descriptions.filter((description) => repeatedShare(description, words) >= 0.7);
      if (repeated.length * 2 <= descriptions.length) return [];
      return [{ in: "interface", path: ["serviceConnectors", index, "instructions"], message: `instructions of '${connector.name}' mostly repeats the descriptions of ${repeated.length} of its ${descriptions.length} tools; keep only the sequence, the choices and the pitfalls` }];
    });
  },
});
