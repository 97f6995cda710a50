import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { linkNext, nextPage } from "./paginate-call";
import { runCalls } from "./run-calls";

const setup = useFixtureServers();
const page = (offset: string | undefined, records: number[]) => ({ path: "/records", body: { records, ...(offset ? { offset } : {}) } });

describe("paginate (fixture server)", () => {
  it("cursor: follows the cursor until the last page, and says it was not truncated", async () => {
    const server = await setup.fixture([page("c2", [1, 2]), page("c3", [3, 4]), page(undefined, [5])]);
    const list = [call.parse({ name: "all", url: `${server.url}/records`, paginate: { strategy: "cursor", cursor: "return response.offset", into: "offset", items: "return response.records" } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.all).toEqual({ items: [1, 2, 3, 4, 5], pages: 3, truncated: false });
    expect(setup.requests().map((request) => request.query.offset)).toEqual([undefined, "c2", "c3"]);
  });

  it("stops at the page cap even when the server always has more, and says so", async () => {
    const server = await setup.fixture([page("again", [1])]);
    const list = [call.parse({ name: "all", url: `${server.url}/records`, paginate: { strategy: "cursor", cursor: "return response.offset", into: "offset", items: "return response.records", maxPages: 4 } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.all).toEqual({ items: [1, 1, 1, 1], pages: 4, truncated: true });
    expect(setup.requests()).toHaveLength(4);
  });

  it("page: counts pages from 1 in the body and stops at a short page; max cuts the list", async () => {
    const server = await setup.fixture([
      { method: "POST", path: "/search", body: { people: [1, 2] } },
      { method: "POST", path: "/search", body: { people: [3, 4] } },
      { method: "POST", path: "/search", body: { people: [5] } },
    ]);
    const base = { name: "people", method: "POST", url: `${server.url}/search`, body: { q: "x" } };
    const list = [call.parse({ ...base, paginate: { strategy: "page", in: "body", into: "page", size: 2, items: "return response.people" } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.people).toEqual({ items: [1, 2, 3, 4, 5], pages: 3, truncated: false });
    expect(setup.requests().map((request) => JSON.parse(request.body))).toEqual([{ q: "x", page: 1 }, { q: "x", page: 2 }, { q: "x", page: 3 }]);
  });

  it("max: stops once enough items are read and cuts the list to it", async () => {
    const server = await setup.fixture([{ path: "/people", body: { people: [1, 2] } }, { path: "/people", body: { people: [3, 4] } }]);
    const list = [call.parse({ name: "few", url: `${server.url}/people`, paginate: { strategy: "page", size: 2, items: "return response.people", max: 3 } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.few).toEqual({ items: [1, 2, 3], pages: 2, truncated: true });
    expect(setup.requests()).toHaveLength(2);
  });

  it("offset: moves by the items read, in the query", async () => {
    const server = await setup.fixture([{ path: "/items", body: [1, 2] }, { path: "/items", body: [3] }]);
    const list = [call.parse({ name: "items", url: `${server.url}/items`, paginate: { strategy: "offset", into: "offset", size: 2, sizeInto: "limit" } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.items).toEqual({ items: [1, 2, 3], pages: 2, truncated: false });
    expect(setup.requests().map((request) => request.query)).toEqual([{ limit: "2", offset: "0" }, { limit: "2", offset: "2" }]);
  });

  it("link: follows rel=next on the same origin and never to another host", async () => {
    const server = await setup.fixture([
      { path: "/issues", headers: { link: "</issues2?page=2>; rel=\"next\", </issues?page=9>; rel=\"last\"" }, body: [1] },
      { path: "/issues2", headers: { link: "<https://elsewhere.example/issues?page=3>; rel=\"next\"" }, body: [2] },
    ]);
    const list = [call.parse({ name: "issues", url: `${server.url}/issues`, paginate: { strategy: "link" } })];
    const outcome = await runCalls(list, {}, setup.context());
    expect(outcome.calls.issues).toEqual({ items: [1, 2], pages: 2, truncated: false });
    expect(setup.requests().map((request) => request.path)).toEqual(["/issues", "/issues2"]);
  });
});

describe("nextPage and linkNext (pure)", () => {
  const base = { number: 1, offset: 0, cursor: undefined, itemCount: 2, origin: "https://api.example.com" };
  it("ends a page strategy on an empty or short page", () => {
    expect(nextPage({ strategy: "page", in: "query", maxPages: 50 }, { ...base, itemCount: 0 })).toBeUndefined();
    expect(nextPage({ strategy: "page", in: "query", maxPages: 50 }, { ...base, itemCount: 1, size: 2 })).toBeUndefined();
    expect(nextPage({ strategy: "page", in: "query", maxPages: 50 }, { ...base, size: 2 })).toEqual({ adjust: { query: { page: "2" } } });
  });
  it("reads rel=next among several links", () => {
    expect(linkNext('<https://a.example/2>; rel="next", <https://a.example/9>; rel="last"')).toBe("https://a.example/2");
    expect(linkNext('<https://a.example/1>; rel="prev"')).toBeUndefined();
    expect(linkNext(undefined)).toBeUndefined();
  });
});
