import { describe, expect, it } from "vitest";
import { deepMerge, maxRefDepth, resolveRefs } from "./resolve-refs";
import { locate, parseSource, type SourceFile } from "./source-file";

const file = (name: string, text: string): SourceFile => parseSource(text, name).source;

function protocols(files: Record<string, string>): Map<string, SourceFile> {
  return new Map(Object.entries(files).map(([stem, text]) => [stem, file(`nodes/shared/${stem}.yaml`, text)]));
}

const chat = [
  "tool:", // 1
  "  type: function", // 2
  "  function:", // 3
  "    name: \"{{ tool.name }}\"", // 4
  "call:", // 5
  "  id: \"{{ call.id }}\"", // 6
  "  name: \"{{ call.function.name }}\"", // 7
  "resultsInto: messages", // 8
  "choice: [auto]", // 9
  "",
].join("\n");

const owner = (text: string) => file("nodes/agent/api/toolExchange.yaml", text);

describe("resolveRefs", () => {
  it("leaves a value without $ref as it is", () => {
    const resolved = resolveRefs(owner("maxTurns: 3\nfrom: mcpService\n"), protocols({ chat }));
    expect(resolved).toMatchObject({ value: { maxTurns: 3, from: "mcpService" }, problems: [] });
  });

  it("replaces a lone $ref by the protocol", () => {
    const resolved = resolveRefs(owner("$ref: chat\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([]);
    expect(resolved.value).toEqual(protocols({ chat }).get("chat")?.value);
  });

  it("deep-merges a $ref with sibling keys: local keys win, maps merge, lists replace", () => {
    const resolved = resolveRefs(owner("$ref: chat\ncall:\n  id: \"{{ call.callId }}\"\nchoice: [required]\nmaxTurns: 2\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([]);
    expect(resolved.value).toEqual({
      tool: { type: "function", function: { name: "{{ tool.name }}" } },
      call: { id: "{{ call.callId }}", name: "{{ call.function.name }}" },
      resultsInto: "messages",
      choice: ["required"],
      maxTurns: 2,
    });
  });

  it("picks a fragment with #a/b, also below the root", () => {
    const resolved = resolveRefs(owner("tool:\n  $ref: chat#tool/function\ncall:\n  $ref: chat#call\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([]);
    expect(resolved.value).toEqual({ tool: { name: "{{ tool.name }}" }, call: { id: "{{ call.id }}", name: "{{ call.function.name }}" } });
  });

  it("follows a $ref inside a protocol", () => {
    const resolved = resolveRefs(owner("$ref: stream\n"), protocols({ chat, stream: "$ref: chat\ntransport: sse\n" }));
    expect(resolved.problems).toEqual([]);
    expect(resolved.value).toMatchObject({ transport: "sse", resultsInto: "messages" });
  });

  it("reports an unknown protocol at the $ref's value, with a suggestion", () => {
    const resolved = resolveRefs(owner("# the protocol\n$ref: chatt\nmaxTurns: 3\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([
      expect.objectContaining({ rule: "ref-unknown", file: "nodes/agent/api/toolExchange.yaml", line: 2, column: 7, message: expect.stringContaining("did you mean 'chat'?") }),
    ]);
    expect(resolved.value).toEqual({ maxTurns: 3 });
  });

  it("reports an unknown fragment and a $ref that is not a name", () => {
    const fragment = resolveRefs(owner("call:\n  $ref: chat#calls\n"), protocols({ chat }));
    expect(fragment.problems).toEqual([expect.objectContaining({ rule: "ref-unknown", line: 2, column: 9, message: expect.stringContaining("no fragment 'calls'") })]);
    const notAName = resolveRefs(owner("$ref: 42\n"), protocols({ chat }));
    expect(notAName.problems).toEqual([expect.objectContaining({ rule: "ref-unknown", line: 1, column: 7 })]);
    const blank = resolveRefs(owner('$ref: "  "\n'), protocols({ chat }));
    expect(blank.problems).toEqual([expect.objectContaining({ rule: "ref-unknown", line: 1 })]);
  });

  it("reports a cycle once, at the $ref that closes it, in the protocol's file", () => {
    const resolved = resolveRefs(owner("$ref: ping\n"), protocols({ ping: "toolsInto: tools\n$ref: pong\n", pong: "# back\n$ref: ping\n" }));
    expect(resolved.problems).toEqual([
      expect.objectContaining({ rule: "ref-cycle", file: "nodes/shared/pong.yaml", line: 2, column: 7, message: "$ref cycle: ping → pong → ping" }),
    ]);
    expect(resolved.value).toEqual({ toolsInto: "tools" });
  });

  it("reports a protocol that imports itself", () => {
    const resolved = resolveRefs(owner("$ref: self\n"), protocols({ self: "a: 1\n$ref: self\n" }));
    expect(resolved.problems).toEqual([expect.objectContaining({ rule: "ref-cycle", file: "nodes/shared/self.yaml", line: 2 })]);
  });

  it("allows the same protocol twice side by side (not a cycle)", () => {
    const resolved = resolveRefs(owner("tool:\n  $ref: chat#tool\ncall:\n  $ref: chat#call\nextra:\n  $ref: chat#call\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([]);
  });

  it(`refuses a chain deeper than ${maxRefDepth}`, () => {
    const chain: Record<string, string> = { [`p${maxRefDepth}`]: "toolsInto: tools\n" };
    for (let index = 0; index < maxRefDepth; index++) chain[`p${index}`] = `$ref: p${index + 1}\n`;
    const atLimit = resolveRefs(owner("$ref: p1\n"), protocols(chain));
    expect(atLimit.problems).toEqual([]);
    expect(atLimit.value).toEqual({ toolsInto: "tools" });
    const over = resolveRefs(owner("$ref: p0\n"), protocols(chain));
    expect(over.problems).toEqual([expect.objectContaining({ rule: "ref-too-deep", file: `nodes/shared/p${maxRefDepth - 1}.yaml`, line: 1 })]);
  });

  it("refuses sibling keys beside a $ref to a value that is not a map", () => {
    const resolved = resolveRefs(owner("result:\n  $ref: chat#resultsInto\n  role: tool\n"), protocols({ chat }));
    expect(resolved.problems).toEqual([expect.objectContaining({ rule: "ref-merge", line: 2, column: 9 })]);
    expect(resolved.value).toEqual({ result: { role: "tool" } });
  });

  it("lets a lone $ref bring in a value that is not a map", () => {
    const resolved = resolveRefs(owner("resultsInto:\n  $ref: chat#resultsInto\n"), protocols({ chat }));
    expect(resolved).toMatchObject({ value: { resultsInto: "messages" }, problems: [] });
  });

  // A YAML alias inside its own anchor would give a circular value; the parser refuses it first.
  it("does not overflow on a circular value", () => {
    const circular = owner("body: &loop\n  again: *loop\n");
    expect(() => resolveRefs(circular, protocols({ chat }))).not.toThrow();
  });
});

describe("the locator of a resolved file", () => {
  const source = owner("$ref: chat\ncall:\n  id: \"{{ call.callId }}\"\nmaxTurns: 2\n");
  const shared = protocols({ chat });
  const { locator } = resolveRefs(source, shared);
  const place = (path: Array<string | number>) => {
    const found = locator(path, "value");
    return { file: found.source.file, ...locate(found.source, found.path) };
  };

  it("maps a local key to the node's own file", () => {
    expect(place(["maxTurns"])).toEqual({ file: "nodes/agent/api/toolExchange.yaml", line: 4, column: 11 });
    expect(place(["call", "id"])).toEqual({ file: "nodes/agent/api/toolExchange.yaml", line: 3, column: 7 });
  });

  it("maps a key brought in by the $ref to the protocol's file", () => {
    expect(place(["call", "name"])).toEqual({ file: "nodes/shared/chat.yaml", line: 7, column: 9 });
    expect(place(["tool", "function", "name"])).toEqual({ file: "nodes/shared/chat.yaml", line: 4, column: 11 });
    expect(place(["choice", 0])).toEqual({ file: "nodes/shared/chat.yaml", line: 9, column: 10 });
  });

  it("maps a fragment's keys below the fragment's own path", () => {
    const fragment = resolveRefs(owner("tool:\n  $ref: chat#tool/function\n"), shared);
    const found = fragment.locator(["tool", "name"], "value");
    expect(found.source.file).toBe("nodes/shared/chat.yaml");
    expect(found.path).toEqual(["tool", "function", "name"]);
  });

  it("keeps a path that is nowhere in the node's own file", () => {
    const found = locator(["nothing", "here"], "value");
    expect(found).toEqual({ source, path: ["nothing", "here"] });
  });
});

describe("deepMerge", () => {
  it("merges maps key by key, replaces lists and scalars, and changes neither input", () => {
    const base = { a: { b: 1, c: [1, 2] }, d: "x" };
    const local = { a: { c: [3], e: true }, d: { f: 1 } };
    const merged = deepMerge(base, local);
    expect(merged).toEqual({ a: { b: 1, c: [3], e: true }, d: { f: 1 } });
    expect(base).toEqual({ a: { b: 1, c: [1, 2] }, d: "x" });
    expect(local).toEqual({ a: { c: [3], e: true }, d: { f: 1 } });
  });
});
