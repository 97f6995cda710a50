import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createToolIndex } from "./create-tool-index";
import { sampleTools } from "./sample-tools";
import type { SearchableTool } from "./searchable-tool";
import { emptyThesaurus } from "./thesaurus";

const benchCatalogue = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../../bench/tool-search-catalogue.json"), "utf8"),
) as SearchableTool[];

const names = (index: ReturnType<typeof createToolIndex>, query: string, k = 5): string[] =>
  index.search(query, k).map((match) => match.tool.name);

describe("createToolIndex: jobs phrased in other words than the description", () => {
  const index = createToolIndex(sampleTools);

  it.each([
    ["let the on-call engineer know the database is down", "create_incident"],
    ["what's the weather tomorrow in Lisbon", "get_forecast"],
    ["turn 5 km into miles", "convertUnits"],
    ["find bug reports about login", "searchIssues"],
    ["give the customer their money back", "refund_payment"],
  ])("%s → %s first", (query, expected) => {
    expect(names(index, query)[0]).toBe(expected);
  });

  it("needs more than keywords for them: without related words these are not found at all", () => {
    const keywordsOnly = createToolIndex(sampleTools, { thesaurus: emptyThesaurus });
    expect(names(keywordsOnly, "turn 5 km into miles")).not.toContain("convertUnits");
    expect(names(keywordsOnly, "find bug reports about login")).not.toContain("searchIssues");
    expect(names(keywordsOnly, "give the customer their money back")).not.toContain("refund_payment");
  });
});

describe("createToolIndex over the bench catalogue (185 tools, 30 servers)", () => {
  const index = createToolIndex(benchCatalogue);
  const ids = (query: string, k = 5): string[] => index.search(query, k).map((match) => `${match.tool.server}/${match.tool.name}`);

  it("ranks the incident tool above every tool outside PagerDuty for the on-call job", () => {
    const ranked = ids("let the on-call engineer know the database is down");
    const incident = ranked.indexOf("pagerduty/create_incident");
    expect(incident).toBeGreaterThanOrEqual(0);
    expect(incident).toBeLessThan(2);
    expect(ranked.slice(0, incident).every((id) => id.startsWith("pagerduty/"))).toBe(true);
  });

  it("finds the forecast among the weather tools, above every other server's", () => {
    const ranked = ids("what's the weather tomorrow in Lisbon");
    const forecast = ranked.indexOf("weather/get_forecast");
    expect(forecast).toBeGreaterThanOrEqual(0);
    expect(ranked.slice(0, forecast).every((id) => id.startsWith("weather/"))).toBe(true);
  });

  it.each([
    ["turn 5 km into miles", "calculator/convertUnits"],
    ["make me a strong random passphrase", "vault/generate_password"],
    ["glue these three PDFs together", "documents/merge_pdfs"],
  ])("%s → %s first", (query, expected) => {
    expect(ids(query)[0]).toBe(expected);
  });

  it("ranks every tool first when asked for by its exact name", () => {
    const misses = benchCatalogue.filter((tool) => index.search(tool.name, 1)[0]?.tool !== tool).map((tool) => tool.name);
    expect(misses).toEqual([]);
  });
});

describe("createToolIndex: exact names, limits and order", () => {
  const index = createToolIndex(sampleTools);

  it("accepts a name in any case or separator style, with or without its server", () => {
    for (const query of ["create_incident", "createIncident", "Create Incident", "pagerduty.create_incident", "pagerduty/create-incident"]) {
      expect(names(index, query)[0]).toBe("create_incident");
    }
  });

  it("puts an exact name first even when another tool matches its words better", () => {
    const tools: SearchableTool[] = [
      { server: "a", name: "send_message_now", description: "send message send message", inputSchema: {} },
      { server: "b", name: "send_message", description: "Deliver a note", inputSchema: {} },
    ];
    expect(names(createToolIndex(tools), "send message")[0]).toBe("send_message");
  });

  it("returns at most k results, best first", () => {
    const results = index.search("create a file or an event", 3);
    expect(results).toHaveLength(3);
    expect(results.map((match) => match.score)).toEqual([...results.map((match) => match.score)].sort((a, b) => b - a));
    expect(index.search("create", 1)).toHaveLength(1);
    expect(index.search("create")).toHaveLength(Math.min(5, index.search("create", 100).length));
  });

  it("returns nothing for an empty query, a query of stopwords, no match, or k below 1", () => {
    expect(index.search("")).toEqual([]);
    expect(index.search("   ")).toEqual([]);
    expect(index.search("what is the")).toEqual([]);
    expect(index.search("zzyzx qwxv")).toEqual([]);
    expect(index.search("create", 0)).toEqual([]);
    expect(index.search("create", -2)).toEqual([]);
  });

  it("orders equal scores by server, then name, whatever the catalogue order", () => {
    const twin = (server: string, name: string): SearchableTool => ({ server, name, description: "Archive old records", inputSchema: {} });
    const tools = [twin("zeta", "archive"), twin("alpha", "archive_b"), twin("alpha", "archive_a"), twin("mid", "archive")];
    const expected = ["alpha/archive_a", "alpha/archive_b", "mid/archive", "zeta/archive"];
    for (const order of [tools, [...tools].reverse()]) {
      const ranked = createToolIndex(order, { thesaurus: emptyThesaurus }).search("records", 10);
      expect(ranked.map((match) => `${match.tool.server}/${match.tool.name}`)).toEqual(expected);
    }
  });

  it("gives the same answer to the same query every time", () => {
    const first = index.search("open an incident", 10);
    for (let round = 0; round < 3; round++) expect(index.search("open an incident", 10)).toEqual(first);
  });

  it("searches parameter names and descriptions too", () => {
    expect(names(index, "latitude longitude")[0]).toBe("get_forecast");
    expect(names(index, "ticker")[0]).toBe("get_stock_quote");
  });

  it("indexes no tools without failing", () => {
    expect(createToolIndex([]).search("anything")).toEqual([]);
  });
});
