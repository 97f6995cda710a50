import { describe, expect, it } from "vitest";
import { eventsManifest, runManifest } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { runStep } from "./run-step";

const { fixture, context, requests } = useFixtureServers();

describe("runStep", () => {
  it("puts each events row's value on its output, honouring `when`", async () => {
    const { url } = await fixture([{ path: "/items", body: { items: [1, 2, 3], next: null } }]);
    const result = await runStep(
      {
        run: runManifest.parse([{ name: "list", url: "{{ config.baseUrl }}/items", query: { q: "{{ inputs.query }}" } }]),
        events: eventsManifest.parse([
          { emit: "items", value: "return response.items" },
          { emit: "count", value: "return calls.list.items.length" },
          { emit: "more", when: "return response.next !== null", value: "return response.next" },
          { emit: "whole" },
          { emit: "statusCode", value: "{{ status }}" },
          { emit: "fromConfig", when: "return config.flag", value: "{{ inputs.query }}" },
          { emit: "later", from: "complete", value: "return 1" },
        ]),
      },
      { config: { baseUrl: url, flag: true }, inputs: { query: "q1" } },
      context(),
    );
    expect(result).toEqual({
      ok: true,
      outputs: { items: [1, 2, 3], count: 3, whole: { items: [1, 2, 3], next: null }, statusCode: 200, fromConfig: "q1" },
    });
    expect(requests()[0].query).toEqual({ q: "q1" });
  });

  it("a failed call fails the step with the call's message", async () => {
    const { url } = await fixture([{ path: "/items", status: 404, body: { message: "Not Found" } }]);
    const result = await runStep(
      { run: runManifest.parse([{ name: "list", url: "{{ config.baseUrl }}/items" }]), events: eventsManifest.parse([{ emit: "items" }]) },
      { config: { baseUrl: url }, inputs: {} },
      context(),
    );
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/answered 404: Not Found/) });
  });

  it("a row whose value throws fails the step naming the output", async () => {
    const { url } = await fixture([{ path: "/items", body: {} }]);
    const result = await runStep(
      { run: runManifest.parse([{ name: "list", url: "{{ config.baseUrl }}/items" }]), events: eventsManifest.parse([{ emit: "items", value: "return response.items.length" }]) },
      { config: { baseUrl: url }, inputs: {} },
      context(),
    );
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^output 'items' could not be computed/) });
  });

  it("without events, puts out nothing", async () => {
    const { url } = await fixture([{ path: "/items", body: { a: 1 } }]);
    const result = await runStep({ run: runManifest.parse([{ name: "list", url: "{{ config.baseUrl }}/items" }]) }, { config: { baseUrl: url }, inputs: {} }, context());
    expect(result).toEqual({ ok: true, outputs: {} });
  });
});
