import { describe, expect, it, vi } from "vitest";
import { createEmbeddingToolIndex, embeddingText, type EmbedTexts } from "./embedding-tool-index";
import { sampleTools } from "./sample-tools";
import { ToolSearchError } from "./tool-search-error";

/**
 * A test double for an embedding model: each vector counts the words of a
 * few hand-picked topics, so "smog" lands near "air" and "pollution" the
 * way a real model would put it, with no model shipped.
 */
const topics: string[][] = [
  ["smog", "air", "pollution", "haze"],
  ["incident", "outage", "down", "page", "on-call"],
  ["weather", "forecast", "rain", "tomorrow"],
  ["money", "refund", "charge", "payment"],
  ["file", "read", "write", "path"],
];

function topicVector(text: string): number[] {
  const lower = text.toLowerCase();
  return topics.map((words) => words.filter((word) => lower.includes(word)).length + 0.01);
}

const topicModel: EmbedTexts = async (texts) => texts.map(topicVector);

const toolsWithAirQuality = [
  ...sampleTools,
  { server: "weather", name: "get_pollution_index", description: "Pollution levels measured at a station", inputSchema: {} },
];

describe("createEmbeddingToolIndex", () => {
  it("finds a tool that shares no word with the query when the model puts them close", async () => {
    const index = await createEmbeddingToolIndex(toolsWithAirQuality, { embed: topicModel });
    expect(index.lexical.search("is there smog")).toEqual([]);
    const [best] = await index.search("is there smog", 3);
    expect(best.tool.name).toBe("get_pollution_index");
  });

  it("keeps the lexical order when the embedding has no weight", async () => {
    const index = await createEmbeddingToolIndex(sampleTools, { embed: topicModel, semanticWeight: 0 });
    const query = "let the on-call engineer know the database is down";
    const blended = (await index.search(query, 5)).map((match) => match.tool.name);
    expect(blended).toEqual(index.lexical.search(query, 5).map((match) => match.tool.name));
  });

  it("blends both: scores are in 0–1 and the best of both rankings comes first", async () => {
    const index = await createEmbeddingToolIndex(sampleTools, { embed: topicModel, semanticWeight: 0.5 });
    const results = await index.search("page someone, the database is down", 5);
    expect(results[0].tool.name).toBe("create_incident");
    for (const match of results) expect(match.score).toBeGreaterThanOrEqual(0);
    for (const match of results) expect(match.score).toBeLessThanOrEqual(1);
  });

  it("embeds the tools once, in batches, and the query once per search", async () => {
    const embed = vi.fn(topicModel);
    const index = await createEmbeddingToolIndex(sampleTools, { embed, batchSize: 5 });
    expect(embed).toHaveBeenCalledTimes(Math.ceil(sampleTools.length / 5));
    expect(embed.mock.calls[0][0][0]).toBe(embeddingText(sampleTools[0]));
    await index.search("refund", 2);
    expect(embed).toHaveBeenCalledTimes(Math.ceil(sampleTools.length / 5) + 1);
    expect(embed.mock.calls.at(-1)?.[0]).toEqual(["refund"]);
  });

  it("returns nothing for an empty query or k below 1, without calling the model", async () => {
    const embed = vi.fn(topicModel);
    const index = await createEmbeddingToolIndex(sampleTools, { embed });
    embed.mockClear();
    expect(await index.search("  ")).toEqual([]);
    expect(await index.search("refund", 0)).toEqual([]);
    expect(embed).not.toHaveBeenCalled();
  });

  it("reports a failing model as embedding-failed, and the lexical index still answers", async () => {
    let fail = false;
    const flaky: EmbedTexts = async (texts) => {
      if (fail) throw new Error("connection refused");
      return topicModel(texts);
    };
    const index = await createEmbeddingToolIndex(sampleTools, { embed: flaky });
    fail = true;
    await expect(index.search("refund")).rejects.toMatchObject({ name: "ToolSearchError", code: "embedding-failed" });
    expect(index.lexical.search("refund")[0].tool.name).toBe("refund_payment");
  });

  it("rejects a model that answers with the wrong number or size of vectors", async () => {
    const tooFew: EmbedTexts = async (texts) => texts.slice(1).map(topicVector);
    await expect(createEmbeddingToolIndex(sampleTools, { embed: tooFew })).rejects.toMatchObject({ code: "embedding-shape" });

    let queryDimension = topics.length;
    const changing: EmbedTexts = async (texts) => texts.map((text) => topicVector(text).slice(0, queryDimension));
    const index = await createEmbeddingToolIndex(sampleTools, { embed: changing });
    queryDimension = 2;
    const error = await index.search("refund").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolSearchError);
    expect((error as ToolSearchError).code).toBe("embedding-shape");
  });
});
