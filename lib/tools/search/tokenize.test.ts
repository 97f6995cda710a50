import { describe, expect, it } from "vitest";
import { analyze, splitWords } from "./tokenize";

describe("splitWords", () => {
  it("splits identifiers in every common style", () => {
    expect(splitWords("searchIssues")).toEqual(["search", "issues"]);
    expect(splitWords("create_incident")).toEqual(["create", "incident"]);
    expect(splitWords("get-pod-logs")).toEqual(["get", "pod", "logs", "getpodlogs"]);
    expect(splitWords("HTTPServer")).toEqual(["http", "server"]);
    expect(splitWords("pagerduty.create_incident")).toEqual(["pagerduty", "create", "incident"]);
  });

  it("drops apostrophes and keeps a hyphenated compound whole as well as split", () => {
    expect(splitWords("what's the on-call rota")).toEqual(["whats", "the", "on", "call", "rota", "oncall"]);
  });
});

describe("analyze", () => {
  it("drops stopwords and bare numbers and stems the rest", () => {
    expect(analyze("Turn 5 km into the miles")).toEqual(["turn", "km", "mile"]);
  });

  it("keeps state words that carry a job", () => {
    expect(analyze("the database is down")).toEqual(["databas", "down"]);
  });
});
