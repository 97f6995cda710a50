import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { CallFailure } from "./call-failure";
import { runCalls } from "./run-calls";

const { fixture, context, requests } = useFixtureServers();

describe("runCalls", () => {
  it("skips a call whose `when` is false and leaves no calls.<name> for it", async () => {
    const { url } = await fixture([
      { path: "/first", body: { n: 1 } },
      { path: "/second", body: { n: 2 } },
    ]);
    const outcome = await runCalls(
      [call.parse({ name: "first", url: "{{ config.baseUrl }}/first" }), call.parse({ name: "second", when: "return params.more === true", url: "{{ config.baseUrl }}/second" })],
      { config: { baseUrl: url }, params: { more: false } },
      context(),
    );
    expect(outcome.calls).toEqual({ first: { n: 1 } });
    expect(outcome.last?.response).toEqual({ n: 1 });
    expect(requests().map((request) => request.path)).toEqual(["/first"]);
  });

  it("makes a call whose `when` is true", async () => {
    const { url } = await fixture([{ path: "/only", body: { ok: 1 } }]);
    const outcome = await runCalls([call.parse({ name: "only", when: "return params.go", url: "{{ config.baseUrl }}/only" })], { config: { baseUrl: url }, params: { go: true } }, context());
    expect(outcome.calls).toEqual({ only: { ok: 1 } });
  });

  it("lets a later call read an earlier reply in its URL, query and body", async () => {
    const { url } = await fixture([
      { path: "/search", body: { items: [{ id: "item 7", owner: "ada" }] } },
      { method: "POST", path: "/items/item%207/notes", body: { saved: true } },
    ]);
    const outcome = await runCalls(
      [
        call.parse({ name: "search", url: "{{ config.baseUrl }}/search", query: { q: "{{ params.q }}" } }),
        call.parse({
          name: "annotate",
          method: "POST",
          when: "return calls.search.items.length > 0",
          url: "{{ config.baseUrl }}/items/{{ calls.search.items.0.id }}/notes",
          query: { owner: "{{ calls.search.items.0.owner }}" },
          body: { text: "return 'found ' + calls.search.items.length", first: "{{ calls.search.items.0 }}" },
        }),
      ],
      { config: { baseUrl: url }, params: { q: "seven" } },
      context(),
    );
    expect(outcome.calls).toEqual({ search: { items: [{ id: "item 7", owner: "ada" }] }, annotate: { saved: true } });
    expect(outcome.last?.response).toEqual({ saved: true });
    const second = requests()[1];
    expect(second).toMatchObject({ method: "POST", path: "/items/item%207/notes", query: { owner: "ada" } });
    expect(JSON.parse(second?.body ?? "null")).toEqual({ text: "found 1", first: { id: "item 7", owner: "ada" } });
  });

  it("with no calls, answers no replies and no last call", async () => {
    expect(await runCalls([], {}, context())).toEqual({ calls: {}, last: undefined });
  });

  it("stops at the first failure", async () => {
    const { url } = await fixture([
      { path: "/a", status: 500, body: { message: "down" } },
      { path: "/b", body: {} },
    ]);
    const attempt = runCalls([call.parse({ name: "a", url: "{{ config.baseUrl }}/a" }), call.parse({ name: "b", url: "{{ config.baseUrl }}/b" })], { config: { baseUrl: url } }, context());
    await expect(attempt).rejects.toBeInstanceOf(CallFailure);
    expect(requests().map((request) => request.path)).toEqual(["/a"]);
  });

  it("a `when` that throws is a template failure naming the call", async () => {
    const attempt = runCalls([call.parse({ name: "guarded", when: "return params.a.b", url: "https://api.example.com/" })], { params: {} }, context());
    await expect(attempt).rejects.toMatchObject({ code: "template", message: expect.stringMatching(/call 'guarded': its 'when' failed/) });
  });
});
