/**
 * How well and how fast `search_tools` finds tools.
 *
 * Quality: the labelled jobs of bench/tool-search-labelled.json over the
 * catalogue bench/tool-search-catalogue.json; recall@1, recall@5 and MRR
 * (over the top 10) of the search, beside a baseline of plain keyword
 * matching (no stemming, no synonyms) and two steps in between, for the
 * queries used to tune ("dev") and the ones kept aside ("heldout").
 * Speed: median and p95 per query over 10,000 tools made by varying the
 * catalogue, beside a plain linear substring scan in the same process.
 * Prints; asserts nothing (timings belong here, not in tests).
 *
 *   npx tsx bench/tool-search.bench.ts [--misses]   (--misses lists the dev queries not ranked first)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  createToolIndex,
  defaultThesaurus,
  emptyThesaurus,
  splitWords,
  wordnetThesaurus,
  type SearchableTool,
  type ToolIndexOptions,
} from "../lib/tools/search";

interface LabelledQuery {
  query: string;
  expected: string[];
  split: "dev" | "heldout";
}

type Ranker = (query: string, k: number) => SearchableTool[];

const benchFolder = import.meta.dirname;
const catalogue = JSON.parse(readFileSync(path.join(benchFolder, "tool-search-catalogue.json"), "utf8")) as SearchableTool[];
const labelled = JSON.parse(readFileSync(path.join(benchFolder, "tool-search-labelled.json"), "utf8")) as { queries: LabelledQuery[] };
const showMisses = process.argv.includes("--misses");

const toolId = (tool: SearchableTool): string => `${tool.server}/${tool.name}`;

/** Words of a tool as plain keyword matching sees them: lowercase, split, nothing else. */
function keywordText(tool: SearchableTool): Set<string> {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  return new Set(splitWords(`${tool.server} ${tool.name} ${tool.description} ${Object.keys(properties).join(" ")}`));
}

/** The quality baseline: rank by how many distinct query words the tool contains, ties in catalogue order. */
function keywordRanker(tools: SearchableTool[]): Ranker {
  const texts = tools.map(keywordText);
  const ignored = new Set(["the", "a", "an", "of", "to", "in", "on", "for", "and", "or", "is", "it", "my", "me", "i", "this", "that", "what", "how"]);
  return (query, k) => {
    const words = [...new Set(splitWords(query))].filter((word) => !ignored.has(word));
    const scored = texts.map((text, position) => ({ position, score: words.filter((word) => text.has(word)).length }));
    return scored
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .slice(0, k)
      .map((entry) => tools[entry.position]);
  };
}

function indexRanker(tools: SearchableTool[], options: ToolIndexOptions): Ranker {
  const index = createToolIndex(tools, options);
  return (query, k) => index.search(query, k).map((match) => match.tool);
}

interface Quality {
  recallAt1: number;
  recallAt5: number;
  reciprocalRank: number;
}

function measureQuality(rank: Ranker, queries: LabelledQuery[], label: string): Quality {
  let recallAt1 = 0;
  let recallAt5 = 0;
  let reciprocalRank = 0;
  for (const { query, expected, split } of queries) {
    const results = rank(query, 10).map(toolId);
    const position = results.findIndex((id) => expected.includes(id));
    if (position === 0) recallAt1++;
    if (position >= 0 && position < 5) recallAt5++;
    if (position >= 0) reciprocalRank += 1 / (position + 1);
    if (showMisses && split === "dev" && position !== 0) {
      console.log(`  ${label} [${position < 0 ? "-" : position + 1}] ${query} → ${expected[0]}; got ${results.slice(0, 3).join(", ")}`);
    }
  }
  const count = queries.length || 1;
  return { recallAt1: recallAt1 / count, recallAt5: recallAt5 / count, reciprocalRank: reciprocalRank / count };
}

function printQuality(): void {
  const rankers: Array<[string, Ranker]> = [
    ["keyword baseline", keywordRanker(catalogue)],
    ["BM25F, stems, no synonyms", indexRanker(catalogue, { thesaurus: emptyThesaurus })],
    ["+ WordNet synonyms", indexRanker(catalogue, { thesaurus: wordnetThesaurus() })],
    ["+ software shorthand", indexRanker(catalogue, { thesaurus: defaultThesaurus() })],
  ];
  const servers = new Set(catalogue.map((tool) => tool.server)).size;
  console.log(`quality: ${labelled.queries.length} labelled jobs over ${catalogue.length} tools on ${servers} servers`);
  for (const split of ["dev", "heldout", "all"] as const) {
    const queries = labelled.queries.filter((query) => split === "all" || query.split === split);
    console.log(`\n  ${split} (${queries.length} queries)          recall@1  recall@5  MRR@10`);
    const results = rankers.map(([label, rank]) => [label, measureQuality(rank, queries, label)] as const);
    for (const [label, quality] of results) {
      console.log(`  ${label.padEnd(26)}   ${fixed(quality.recallAt1)}     ${fixed(quality.recallAt5)}     ${fixed(quality.reciprocalRank)}`);
    }
    const baseline = results[0][1];
    const full = results[results.length - 1][1];
    console.log(
      `  ratio search / baseline      ${ratio(full.recallAt1, baseline.recallAt1)}     ${ratio(full.recallAt5, baseline.recallAt5)}     ${ratio(full.reciprocalRank, baseline.reciprocalRank)}`,
    );
  }
}

/** 10,000 tools: the catalogue again and again, each copy on its own server with a varied name and description. */
function manyTools(count: number): SearchableTool[] {
  const qualifiers = ["", "staging", "legacy", "eu", "internal", "v2", "team", "sandbox", "backup", "partner"];
  return Array.from({ length: count }, (_, position) => {
    const tool = catalogue[position % catalogue.length];
    const copy = Math.floor(position / catalogue.length);
    const qualifier = qualifiers[copy % qualifiers.length];
    return {
      server: `${tool.server}-${copy}`,
      name: qualifier ? `${tool.name}_${qualifier}` : tool.name,
      description: qualifier ? `${tool.description} (${qualifier} instance ${copy})` : tool.description,
      inputSchema: tool.inputSchema,
    };
  });
}

/** The speed baseline: every query word looked for in every tool's lowercased text, then sorted. */
function substringRanker(tools: SearchableTool[]): Ranker {
  const texts = tools.map((tool) => `${tool.server} ${tool.name} ${tool.description} ${JSON.stringify(tool.inputSchema)}`.toLowerCase());
  return (query, k) => {
    const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 2);
    const hits: Array<{ position: number; score: number }> = [];
    texts.forEach((text, position) => {
      let score = 0;
      for (const word of words) if (text.includes(word)) score++;
      if (score > 0) hits.push({ position, score });
    });
    hits.sort((a, b) => b.score - a.score || a.position - b.position);
    return hits.slice(0, k).map((hit) => tools[hit.position]);
  };
}

/** Milliseconds per call of each query, over `rounds` rounds after one warm-up round. */
function timings(rank: Ranker, queries: string[], rounds: number): number[] {
  for (const query of queries) rank(query, 5);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      rank(query, 5);
      samples.push(performance.now() - started);
    }
  }
  return samples.sort((a, b) => a - b);
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function printSpeed(): void {
  const tools = manyTools(10_000);
  const started = performance.now();
  const search = indexRanker(tools, {});
  const buildMs = performance.now() - started;
  const scan = substringRanker(tools);
  const queries = labelled.queries.map((query) => query.query);
  const searchTimes = timings(search, queries, 20);
  const scanTimes = timings(scan, queries, 5);
  const [searchMedian, searchP95] = [percentile(searchTimes, 0.5), percentile(searchTimes, 0.95)];
  const [scanMedian, scanP95] = [percentile(scanTimes, 0.5), percentile(scanTimes, 0.95)];
  console.log(`\nspeed: ${tools.length} tools, ${queries.length} queries, k = 5 (index built in ${buildMs.toFixed(0)} ms)`);
  console.log(`                          median     p95`);
  console.log(`  search                  ${ms(searchMedian)}  ${ms(searchP95)}`);
  console.log(`  substring scan          ${ms(scanMedian)}  ${ms(scanP95)}`);
  console.log(`  ratio search / scan     ${(searchMedian / scanMedian).toFixed(4).padStart(7)}    ${(searchP95 / scanP95).toFixed(4).padStart(7)}   (the scan takes ${(scanMedian / searchMedian).toFixed(0)}× as long at the median)`);
  console.log(`  target: search under 5 ms per query: ${searchP95 < 5 ? "met" : "NOT met"} (p95 ${ms(searchP95).trim()})`);
  const sample = labelled.queries[0].query;
  console.log(`  e.g. "${sample}" → ${search(sample, 3).map(toolId).join(", ")}`);
}

function fixed(value: number): string {
  return value.toFixed(3);
}

function ratio(value: number, baseline: number): string {
  return baseline === 0 ? "  n/a" : `${(value / baseline).toFixed(2)}×`;
}

function ms(value: number): string {
  return `${value.toFixed(3).padStart(7)} ms`;
}

printQuality();
printSpeed();
