import { createToolIndex, type ToolIndex, type ToolIndexOptions } from "./create-tool-index";
import { defaultResultCount, type SearchableTool, type ToolMatch } from "./searchable-tool";
import { tieRanks } from "./tie-ranks";
import { ToolSearchError } from "./tool-search-error";
import { toolFieldText } from "./tool-fields";
import { topMatches } from "./top-matches";

/**
 * An embedding model as the search needs it: texts in, one vector per text
 * out, in order. Any dimension; vectors need not be normalized. Wire a real
 * model (an AI SDK `embedMany`, a local ONNX model) in behind this.
 */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

export interface EmbeddingToolIndexOptions extends ToolIndexOptions {
  embed: EmbedTexts;
  /** Share of the blended score that comes from the embedding, 0–1; the rest is the lexical score. */
  semanticWeight?: number;
  /** How many of the best lexical and of the best embedding matches are blended. */
  candidateCount?: number;
  /** Tool texts sent to `embed` per call while building. */
  batchSize?: number;
}

/** A tool search that blends the lexical index with an embedding model. */
export interface EmbeddingToolIndex {
  readonly tools: readonly SearchableTool[];
  /** The lexical index alone: what to fall back on when the model fails. */
  readonly lexical: ToolIndex;
  /** Rejects with a ToolSearchError (`embedding-failed`, `embedding-shape`) when the model does. */
  search(query: string, k?: number): Promise<ToolMatch[]>;
}

export const defaultSemanticWeight = 0.5;

/**
 * Builds the lexical index and embeds every tool once (name, server,
 * description and parameters as one text). A search embeds the query,
 * takes the best candidates of both rankings, scales each score to 0–1 by
 * the best of its kind, and ranks by
 * `(1 − semanticWeight) · lexical + semanticWeight · cosine`.
 *
 * @example
 * const index = await createEmbeddingToolIndex(tools, { embed: (texts) => model.embed(texts) });
 * await index.search("tell the on-call engineer the database is down", 5);
 */
export async function createEmbeddingToolIndex(tools: readonly SearchableTool[], options: EmbeddingToolIndexOptions): Promise<EmbeddingToolIndex> {
  const lexical = createToolIndex(tools, options);
  const semanticWeight = options.semanticWeight ?? defaultSemanticWeight;
  const candidateCount = options.candidateCount ?? 50;
  const vectors = await embedAll(options.embed, tools.map(embeddingText), options.batchSize ?? 64);
  const dimension = vectors[0]?.length ?? 0;
  const positions = new Map(tools.map((tool, position) => [tool, position]));
  const ties = tieRanks(tools);
  return {
    tools,
    lexical,
    async search(query, k = defaultResultCount) {
      const limit = Math.floor(k);
      if (!(limit > 0) || query.trim() === "") return [];
      const queryVector = normalized((await embedChecked(options.embed, [query], dimension))[0]);
      const similarities = vectors.map((vector) => cosine(queryVector, vector));
      const lexicalScores = new Map(lexical.search(query, candidateCount).map((match) => [positions.get(match.tool)!, match.score]));
      const semanticCandidates = topMatches(similarities.map((_, position) => position), (position) => similarities[position], candidateCount, ties);
      const candidates = [...new Set([...lexicalScores.keys(), ...semanticCandidates.map((match) => match.document)])];
      const bestLexical = Math.max(0, ...lexicalScores.values());
      const bestSemantic = Math.max(0, ...candidates.map((position) => similarities[position]));
      const blended = (position: number): number =>
        (1 - semanticWeight) * (bestLexical > 0 ? (lexicalScores.get(position) ?? 0) / bestLexical : 0) +
        semanticWeight * (bestSemantic > 0 ? Math.max(0, similarities[position]) / bestSemantic : 0);
      return topMatches(candidates, blended, limit, ties).map(({ document, score }) => ({ tool: tools[document], score }));
    },
  };
}

/** What is embedded for a tool: the same fields the lexical index reads, as one text. */
export function embeddingText(tool: SearchableTool): string {
  const text = toolFieldText(tool);
  const parameters = [text.parameterNames, text.parameterDescriptions].filter(Boolean).join(" — ");
  return `${text.name} (${text.server}): ${text.description}${parameters ? `\nParameters: ${parameters}` : ""}`;
}

async function embedAll(embed: EmbedTexts, texts: string[], batchSize: number): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  let dimension = 0;
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = await embedChecked(embed, texts.slice(start, start + batchSize), dimension);
    dimension ||= batch[0]?.length ?? 0;
    vectors.push(...batch.map(normalized));
  }
  return vectors;
}

/** Calls the model and checks its answer: one finite vector per text, all of `dimension` (0: any, but equal). */
async function embedChecked(embed: EmbedTexts, texts: string[], dimension: number): Promise<number[][]> {
  let vectors: number[][];
  try {
    vectors = await embed(texts);
  } catch (error) {
    throw new ToolSearchError("embedding-failed", `the embedding model failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new ToolSearchError("embedding-shape", `the embedding model returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${texts.length} texts`);
  }
  const expected = dimension || vectors[0]?.length || 0;
  const wrong = vectors.findIndex((vector) => !Array.isArray(vector) || vector.length !== expected || expected === 0 || !vector.every(Number.isFinite));
  if (wrong >= 0) {
    throw new ToolSearchError("embedding-shape", `the embedding model returned a bad vector at ${wrong}: expected ${expected} finite numbers`);
  }
  return vectors;
}

function normalized(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let index = 0; index < vector.length; index++) norm += vector[index] * vector[index];
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (value) => value * scale);
}

/** Both vectors are unit length, so the dot product is the cosine. */
function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index] * b[index];
  return sum;
}
