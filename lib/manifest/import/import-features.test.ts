import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../sandbox";
import { checkExpression } from "../lint/expression-syntax";
import { findBlocker } from "./import-blockers";
import { inlineHelpers, packageHelpers } from "./inline-helpers";
import { platformUrlsRead, readPlatformUrls, readScopeAsRun, scopeNote } from "./run-scope";
import { presignCredentials, s3PathStyle } from "./s3-path-style";
import { translateExchange, translateToolRows } from "./stream-exchange";
import type { UnoversePackage } from "./unoverse-tree";
import { checkUrlOrigin } from "../lint/url-origin";
import { renderUrl } from "../../calls/render-url";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(() => sandbox.dispose());

const helpersYaml = `helpers:
  double:
    args: [n]
    body: "return n * 2"
  quadruple:
    args: [n]
    body: "return helpers.double(helpers.double(n))"
`;

const blockerOf = (api: Record<string, unknown>, shared: Record<string, string> = {}) => findBlocker({ node: {}, face: {}, api, shared: new Map(Object.entries(shared)), settings: [] });

describe("what the importer translates", () => {
  it("reads Unoverse's scope ids through the run root, in templates and expressions, and says so", () => {
    expect(readScopeAsRun("crm:{{ scope.userId }}:{{ scope.workflowId }}")).toBe("crm:{{ run.startedBy }}:{{ run.workflowId }}");
    expect(readScopeAsRun("return { id: scope.executionId, node: scope.nodeId, chat: scope.chatId, mine: myscope.nodeId }")).toBe("return { id: run.id, node: run.nodeId, chat: run.id, mine: myscope.nodeId }");
    expect(readScopeAsRun("return scope.engineUrl")).toBe("return scope.engineUrl");
    expect(scopeNote('"return scope.workflowId + scope.nodeId"')).toBe("the `scope` root is read as `run`: scope.workflowId → run.workflowId, scope.nodeId → run.nodeId");
  });

  it("a scope field Switchboard has no counterpart for is the node's one missing feature", () => {
    expect(blockerOf({ run: [{ name: "a", url: "return scope.platformUrl + '/x'" }] })).toBeUndefined(); // a base URL in config now (below)
    expect(blockerOf({ events: [{ emit: "x", value: "return scope.tenantId" }] })).toMatch(/^run-context fields Switchboard does not have/);
    expect(blockerOf({ events: [{ emit: "x", value: "return scope.workflowId" }] })).toBeUndefined();
  });

  it("keyed state is named as missing rather than imported half-working", () => {
    expect(blockerOf({ run: [{ name: "cache", state: "merge", key: "crm:{{ scope.userId }}" }] })).toBe("keyed state (state: merge / drain, or a state entry with its own `key`)");
    expect(blockerOf({ run: [{ name: "snap", state: "read", key: "k" }] })).toBe("keyed state (state: merge / drain, or a state entry with its own `key`)");
    expect(blockerOf({ run: [{ name: "snap", state: "read" }] })).toBeUndefined();
  });

  it("shared helpers are written into each expression that calls them, and the result lints and runs", async () => {
    const helpers = packageHelpers(new Map([["helpers", helpersYaml]]));
    expect(helpers && [...helpers.keys()]).toEqual(["double", "quadruple"]);
    const inlined = inlineHelpers("return helpers.quadruple(config.n) + 1", helpers!);
    expect(checkExpression(inlined)).toMatchObject({ ok: true });
    expect(await sandbox.evaluate(inlined, { config: { n: 3 } })).toBe(13);
    expect(inlineHelpers("{{ config.n }}", helpers!)).toBe("{{ config.n }}");
    expect(blockerOf({ events: [{ emit: "x", value: "return helpers.double(2)" }] }, { helpers: helpersYaml })).toBeUndefined();
    expect(blockerOf({ events: [{ emit: "x", value: "return helpers.double(2)" }] })).toBe("shared helper functions (helpers.<name>() from shared/helpers.yaml)");
  });

  it("malformed helpers are not used (the node stays blocked)", () => {
    expect(packageHelpers(new Map([["helpers", "helpers:\n  bad:\n    args: [1]\n    body: n\n"]]))).toBeUndefined();
    expect(packageHelpers(new Map([["helpers", "helpers: [\n"]]))).toBeUndefined();
  });

  it("a virtual-hosted S3 URL (bucket and region in the host) is written in path style, which keeps the host to one config label", async () => {
    const hosted = "return 'https://' + config.bucket + '.s3.'\n  + config.region + '.amazonaws.com/'\n  + item.split('/').map(s => encodeURIComponent(s)).join('/')";
    expect(checkUrlOrigin(hosted).ok).toBe(false);
    const written = s3PathStyle(hosted);
    expect(written).toBe("return 'https://s3.' + config.region + '.amazonaws.com/' + encodeURIComponent(config.bucket) + '/'\n  + item.split('/').map(s => encodeURIComponent(s)).join('/')");
    expect(checkUrlOrigin(written)).toEqual({ ok: true });
    const url = await renderUrl(written, { config: { bucket: "my.bucket", region: "eu-west-1" }, item: "a b/c.txt" }, sandbox);
    expect(url.toString()).toBe("https://s3.eu-west-1.amazonaws.com/my.bucket/a%20b/c.txt");
    // The region stays one DNS label: a value that tries to extend the host is refused at run time.
    await expect(renderUrl(written, { config: { bucket: "b", region: "evil.example/x" }, item: "k" }, sandbox)).rejects.toThrow(/one DNS label/);
    // A bucket that tries to reach the host is only a path segment.
    const sneaky = await renderUrl(written, { config: { bucket: "evil.example#", region: "us-east-1" }, item: "k" }, sandbox);
    expect(sneaky.origin).toBe("https://s3.us-east-1.amazonaws.com");
    expect(s3PathStyle("return 'https://api.example.com/' + config.bucket")).toBe("return 'https://api.example.com/' + config.bucket");
  });

  it("a presign entry signs with the awsSigV4 service the node's other calls use", () => {
    const calls = [{ name: "list", $ref: "s3#call" }, { name: "link", presign: { url: "return 'https://s3.' + config.region + '.amazonaws.com/b/' + item" } }];
    expect(presignCredentials(calls, ['{"call":{"credential":{"scheme":"awsSigV4","service":"s3"}}}'])).toEqual([calls[0], { ...calls[1], credential: { scheme: "awsSigV4", service: "s3" } }]);
    const signed = [{ name: "link", presign: { url: "x" }, credential: { scheme: "awsSigV4", service: "s3", region: "eu-west-1" } }];
    expect(presignCredentials(signed, [])).toBe(signed);
    expect(blockerOf({ run: calls })).toBeUndefined();
  });

  it("a streamed toolExchange in Unoverse's names is translated: event-type matches, `call` in results, `part` fragments, `calls`, the transcript list", async () => {
    const pkg = { name: "vendor", shared: new Map([["proto", "result: \"return { id: call.id, out: call.output }\"\ntoolsInto: tools\n"]]) } as unknown as UnoversePackage;
    const notes: string[] = [];
    const translated = translateExchange(
      {
        $ref: "proto",
        call: { match: "item.done", when: "return response.item.kind === 'fn'", id: "return response.item.id", name: "return response.item.name", arguments: "return response.item.args" },
        continuity: { match: "turn.finished", from: "return response.turn.id", into: "previous_id" },
        transcript: { assistant: "return { calls: calls.map((c) => c.id) }" },
      },
      { pkg, streamed: true, body: "return { messages: head.concat(transcript) }", notes },
    ) as Record<string, any>;
    expect(translated.result).toBe("return { id: result.id, out: result.output }");
    expect(translated.toolsInto).toBe("tools");
    expect(translated.call.match).toBeUndefined();
    expect(translated.transcript.assistant).toBe("return { calls: toolCalls.map((c) => c.id) }");
    expect(translated.resultsInto).toBe("messages");
    for (const text of [translated.call.when, translated.continuity.match, translated.continuity.from]) expect(checkExpression(text)).toMatchObject({ ok: true });
    const done = { type: "item.done", item: { kind: "fn", id: "c1" } };
    expect(await sandbox.evaluate(translated.call.when, { response: done, call: done })).toBe(true);
    expect(await sandbox.evaluate(translated.call.when, { response: { type: "item.added", item: { kind: "fn" } }, call: {} })).toBe(false);
    const stream = [done, { type: "turn.finished", turn: { id: "t1" } }, { type: "turn.finished", turn: { id: "t2" } }];
    expect(await sandbox.evaluate(translated.continuity.match, { response: stream })).toBe(true);
    expect(await sandbox.evaluate(translated.continuity.from, { response: stream })).toBe("t2");
    const parts = translateExchange({ call: { each: "return response.parts", index: "return part.index", id: "return part.id", name: "return part.fn", arguments: "return part.args" } }, { pkg, streamed: true, body: {}, notes }) as Record<string, any>;
    expect(parts.call).toEqual({ each: "return response.parts", index: "return call.index", id: "return call.id", name: "return call.fn", arguments: "return call.args" });
    expect(translateToolRows([{ emit: "log", from: "tool", value: "return call.name + ':' + JSON.stringify(call.args) + '=' + call.output" }, { emit: "x", value: "return call.id" }], notes)).toEqual([
      { emit: "log", from: "tool", value: "return tool.name + ':' + JSON.stringify(tool.arguments) + '=' + tool.result" },
      { emit: "x", value: "return call.id" },
    ]);
  });

  it("the platform's own service URLs become base URLs in config, whose host the run-time check takes from config only", async () => {
    const url = readPlatformUrls("return scope.engineUrl + '/dictionary/entry/' + encodeURIComponent(params.id)");
    expect(url).toBe("return config.engineUrl + '/dictionary/entry/' + encodeURIComponent(params.id)");
    expect(platformUrlsRead('"return scope.platformUrl + 1" "return scope.engineUrl" "return myscope.engineUrl"')).toEqual(["engineUrl", "platformUrl"]);
    expect(readPlatformUrls("return scope.workflowId")).toBe("return scope.workflowId");
    expect(checkUrlOrigin(url)).toEqual({ ok: true });
    const rendered = await renderUrl(url, { config: { engineUrl: "http://127.0.0.1:4101" }, params: { id: "a/b" } }, sandbox);
    expect(rendered.toString()).toBe("http://127.0.0.1:4101/dictionary/entry/a%2Fb");
    await expect(renderUrl(url, { config: { engineUrl: "" }, params: { id: "x" } }, sandbox)).rejects.toThrow(/config.engineUrl must be an absolute http\(s\) URL/);
  });
});
