import { LineCounter, parseDocument, type Document } from "yaml";
import { parseScorer, type Scorer, ScorerError } from "./scorers";

/**
 * A recorded run kept as a regression test: the workflow it ran, its input
 * and End outputs, the cassette (each node run with its model turns and
 * tool calls, in the order they came, secrets redacted) and the assertions.
 * Written as JSON (or YAML) in the repository, read in review. See
 * docs/tests.md for the format.
 */
export interface TestCase {
  format: typeof caseFormat;
  name: string;
  workflow: {
    id: string | null;
    name: string;
    documentVersion: number;
    savedVersion: number | null;
    documentHash: string;
    /** The workflow's nodes that served recorded calls (service nodes, Task Starts): the document run must still have them. */
    serverNodes?: string[];
  };
  pinnedFrom: { runId: string; pinnedAt: string } | null;
  input: Record<string, unknown>;
  outputs: Record<string, unknown>;
  nodes: CaseNodeRun[];
  assertions: CaseAssertions;
}

export const caseFormat = "switchboard-test-case/1";

/** One node run of the recorded run, its steps under it. `key` is its journal key (`agent#1`). */
export interface CaseNodeRun {
  key: string;
  node: string;
  type: string;
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  steps: CassetteStep[];
}

export type CassetteStep = CassetteTurn | CassetteCall;

/** A model turn: what it was asked (matched on replay) and what it answered. `key`: `agent#1/t2`. */
export interface CassetteTurn {
  kind: "model-turn";
  key: string;
  /** The model as the trace names it (its id, else the protocol). */
  model: string;
  request: CaseModelRequest;
  answer: {
    text: string;
    toolCalls: Array<{ id: string; name: string; arguments: unknown; argumentsText?: string }>;
    finishReason?: string;
    usage?: { inputTokens?: number; outputTokens?: number };
  };
}

/** What an agent asked its model on one turn, as a case compares it. */
export interface CaseModelRequest {
  /** config.model, when the agent has one. */
  model: string | null;
  /** The agent's configured system prompt. */
  system: string;
  /** What the wired connectors added to it. */
  instructions: string;
  messages: CaseMessage[];
  tools: Array<{ name: string; description: string; parameters: unknown }>;
}

export type CaseMessage =
  | { role: "user"; content: Record<string, unknown> }
  | { role: "assistant"; text: string; toolCalls: Array<{ name: string; arguments: unknown }> }
  | { role: "tool"; name: string; isError: boolean };

/** A tool call and its recorded answer. `key`: `agent#1/t1/c0`. */
export interface CassetteCall {
  kind: "tool-call";
  key: string;
  server: string;
  tool: string;
  arguments: unknown;
  /** What the model was handed (text), and the structured result when there was one. */
  output: string;
  isError: boolean;
  structured?: unknown;
  /** The trace row's result and error. */
  result: unknown;
  error: string | null;
}

export interface CaseAssertions {
  /** Scorers of the End outputs against the recorded ones (judges too); default one exact. */
  outputs: Scorer[];
  /** The tool-call sequence: one entry per call, in order; arguments scored against the recorded ones. */
  toolCalls: Array<{ key: string; tool: string; arguments: Scorer[] }>;
  /**
   * Loosenings of model-turn matching: `step` names a turn key (`agent#1/t2`),
   * a node run (`agent#1`), a node (`agent`) or every turn (`*`); its scorers
   * replace the exact match of the request for those turns.
   */
  modelRequests: Array<{ step: string; scorers: Scorer[] }>;
}

/** A case file that cannot be read, at file:line. */
export class TestCaseError extends Error {
  override name = "TestCaseError";
  readonly code = "invalid-test-case";
  constructor(
    message: string,
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    options?: { cause?: unknown },
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${field ? `${field}: ` : ""}${message}`, options);
  }
}

/**
 * Reads a case file (JSON or YAML; JSON is read as YAML, which keeps the
 * position of every value), checking every field: a problem names the file,
 * the line and the field.
 *
 * @example parseTestCase(await readFile("tests/cases/demo.case.json", "utf8"), "tests/cases/demo.case.json")
 */
export function parseTestCase(text: string, file: string): TestCase {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const [syntax] = document.errors;
  if (syntax) throw new TestCaseError(syntax.message.split("\n")[0], file, syntax.linePos?.[0]?.line ?? lines.linePos(syntax.pos[0]).line, null);
  const reader = new CaseReader(document, lines, file);
  return reader.read(document.toJS({ maxAliasCount: 50 }) as unknown);
}

type Path = Array<string | number>;

class CaseReader {
  constructor(
    private readonly document: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  fail(path: Path, message: string, cause?: unknown): never {
    throw new TestCaseError(message, this.file, this.lineOf(path), fieldName(path), cause === undefined ? undefined : { cause });
  }

  /** The line of the value at `path`, or of the nearest parent the file has. */
  lineOf(path: Path): number | null {
    for (let length = path.length; length >= 0; length--) {
      const node = length === 0 ? this.document.contents : this.document.getIn(path.slice(0, length), true);
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) return this.lines.linePos(range[0]).line;
    }
    return null;
  }

  read(value: unknown): TestCase {
    const root = this.object(value, []);
    if (root.format !== caseFormat) this.fail(["format"], `must be "${caseFormat}"${root.format === undefined ? "" : ` (got ${JSON.stringify(root.format)})`}`);
    const workflow = this.object(root.workflow, ["workflow"]);
    const pinned = root.pinnedFrom === null || root.pinnedFrom === undefined ? null : this.object(root.pinnedFrom, ["pinnedFrom"]);
    const nodes = this.list(root.nodes, ["nodes"]).map((node, index) => this.nodeRun(node, ["nodes", index]));
    const keys = new Set<string>();
    nodes.forEach((node, index) => {
      if (keys.has(node.key)) this.fail(["nodes", index, "key"], `the node run ${node.key} is listed twice`);
      keys.add(node.key);
    });
    return {
      format: caseFormat,
      name: this.text(root.name, ["name"]),
      workflow: {
        id: workflow.id === null ? null : this.text(workflow.id, ["workflow", "id"]),
        name: this.text(workflow.name ?? "", ["workflow", "name"], true),
        documentVersion: this.number(workflow.documentVersion ?? 1, ["workflow", "documentVersion"]),
        savedVersion: workflow.savedVersion === null || workflow.savedVersion === undefined ? null : this.number(workflow.savedVersion, ["workflow", "savedVersion"]),
        documentHash: this.text(workflow.documentHash ?? "", ["workflow", "documentHash"], true),
        ...(workflow.serverNodes === undefined ? {} : { serverNodes: this.list(workflow.serverNodes, ["workflow", "serverNodes"]).map((item, index) => this.text(item, ["workflow", "serverNodes", index])) }),
      },
      pinnedFrom: pinned ? { runId: this.text(pinned.runId, ["pinnedFrom", "runId"]), pinnedAt: this.text(pinned.pinnedAt ?? "", ["pinnedFrom", "pinnedAt"], true) } : null,
      input: this.object(root.input ?? {}, ["input"]),
      outputs: this.object(root.outputs ?? {}, ["outputs"]),
      nodes,
      assertions: this.assertions(root.assertions ?? {}, ["assertions"]),
    };
  }

  nodeRun(value: unknown, path: Path): CaseNodeRun {
    const node = this.object(value, path);
    const key = this.text(node.key, [...path, "key"]);
    const steps = this.list(node.steps ?? [], [...path, "steps"]).map((step, index) => this.step(step, [...path, "steps", index], key));
    return {
      key,
      node: this.text(node.node, [...path, "node"]),
      type: this.text(node.type, [...path, "type"]),
      status: this.text(node.status ?? "completed", [...path, "status"]),
      inputs: this.object(node.inputs ?? {}, [...path, "inputs"]),
      outputs: this.object(node.outputs ?? {}, [...path, "outputs"]),
      error: node.error === null || node.error === undefined ? null : this.text(node.error, [...path, "error"], true),
      steps,
    };
  }

  step(value: unknown, path: Path, nodeKey: string): CassetteStep {
    const step = this.object(value, path);
    const key = this.text(step.key, [...path, "key"]);
    if (!key.startsWith(`${nodeKey}/`)) this.fail([...path, "key"], `a step of ${nodeKey} has a key under it (${nodeKey}/t1, ${nodeKey}/t1/c0), not ${JSON.stringify(key)}`);
    if (step.kind === "model-turn") {
      const request = this.object(step.request, [...path, "request"]);
      const answer = this.object(step.answer, [...path, "answer"]);
      return {
        kind: "model-turn",
        key,
        model: this.text(step.model, [...path, "model"]),
        request: {
          model: request.model === null || request.model === undefined ? null : this.text(request.model, [...path, "request", "model"], true),
          system: this.text(request.system ?? "", [...path, "request", "system"], true),
          instructions: this.text(request.instructions ?? "", [...path, "request", "instructions"], true),
          messages: this.list(request.messages ?? [], [...path, "request", "messages"]) as CaseMessage[],
          tools: this.list(request.tools ?? [], [...path, "request", "tools"]) as CaseModelRequest["tools"],
        },
        answer: {
          text: this.text(answer.text ?? "", [...path, "answer", "text"], true),
          toolCalls: this.list(answer.toolCalls ?? [], [...path, "answer", "toolCalls"]).map((call, index) => {
            const where = [...path, "answer", "toolCalls", index];
            const fields = this.object(call, where);
            return {
              id: this.text(fields.id, [...where, "id"]),
              name: this.text(fields.name, [...where, "name"]),
              arguments: fields.arguments ?? {},
              ...(fields.argumentsText === undefined ? {} : { argumentsText: this.text(fields.argumentsText, [...where, "argumentsText"], true) }),
            };
          }),
          ...(answer.finishReason === undefined ? {} : { finishReason: this.text(answer.finishReason, [...path, "answer", "finishReason"], true) }),
          ...(answer.usage === undefined ? {} : { usage: this.object(answer.usage, [...path, "answer", "usage"]) as { inputTokens?: number; outputTokens?: number } }),
        },
      };
    }
    if (step.kind === "tool-call") {
      return {
        kind: "tool-call",
        key,
        server: this.text(step.server, [...path, "server"]),
        tool: this.text(step.tool, [...path, "tool"]),
        arguments: step.arguments ?? {},
        output: this.text(step.output ?? "", [...path, "output"], true),
        isError: step.isError === true,
        ...(step.structured === undefined ? {} : { structured: step.structured }),
        result: step.result ?? null,
        error: step.error === null || step.error === undefined ? null : this.text(step.error, [...path, "error"], true),
      };
    }
    return this.fail([...path, "kind"], `must be "model-turn" or "tool-call"${step.kind === undefined ? "" : ` (got ${JSON.stringify(step.kind)})`}`);
  }

  assertions(value: unknown, path: Path): CaseAssertions {
    const fields = this.object(value, path);
    const scorers = (list: unknown, where: Path) => this.list(list, where).map((item, index) => this.scorer(item, [...where, index]));
    return {
      outputs: fields.outputs === undefined ? [{ kind: "exact" }] : scorers(fields.outputs, [...path, "outputs"]),
      toolCalls: this.list(fields.toolCalls ?? [], [...path, "toolCalls"]).map((item, index) => {
        const where = [...path, "toolCalls", index];
        const call = this.object(item, where);
        return {
          key: this.text(call.key, [...where, "key"]),
          tool: this.text(call.tool, [...where, "tool"]),
          arguments: call.arguments === undefined ? [{ kind: "exact" }] : scorers(call.arguments, [...where, "arguments"]),
        };
      }),
      modelRequests: this.list(fields.modelRequests ?? [], [...path, "modelRequests"]).map((item, index) => {
        const where = [...path, "modelRequests", index];
        const entry = this.object(item, where);
        const list = scorers(entry.scorers, [...where, "scorers"]);
        list.forEach((scorer, position) => {
          if (scorer.kind === "judge") this.fail([...where, "scorers", position, "kind"], "a model request is matched before the model answers: a judge cannot match it");
        });
        return { step: this.text(entry.step, [...where, "step"]), scorers: list };
      }),
    };
  }

  scorer(value: unknown, path: Path): Scorer {
    try {
      return parseScorer(value, fieldName(path) ?? "scorer");
    } catch (error) {
      if (!(error instanceof ScorerError)) throw error;
      // The scorer names its field after the list's place; its line is the field's own when the file has it.
      const field = error.place.slice((fieldName(path) ?? "").length).replace(/^\./, "");
      this.fail(field ? [...path, field] : path, error.message.slice(error.place.length + 2), error);
    }
  }

  object(value: unknown, path: Path): Record<string, unknown> {
    if (value === null || typeof value !== "object" || Array.isArray(value)) this.fail(path, `must be an object${value === undefined ? " (it is missing)" : ""}`);
    return value as Record<string, unknown>;
  }

  list(value: unknown, path: Path): unknown[] {
    if (!Array.isArray(value)) this.fail(path, `must be a list${value === undefined ? " (it is missing)" : ""}`);
    return value;
  }

  text(value: unknown, path: Path, emptyAllowed = false): string {
    if (typeof value !== "string" || (!emptyAllowed && value === "")) this.fail(path, `must be ${emptyAllowed ? "a string" : "a non-empty string"}${value === undefined ? " (it is missing)" : ""}`);
    return value;
  }

  number(value: unknown, path: Path): number {
    if (typeof value !== "number" || !Number.isFinite(value)) this.fail(path, "must be a number");
    return value;
  }
}

/** ["assertions", "outputs", 1, "pattern"] → assertions.outputs[1].pattern */
function fieldName(path: Path): string | null {
  if (path.length === 0) return null;
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${part}` : part), "");
}

/**
 * The case as the file holds it: two-space JSON, keys in the order above,
 * short objects and lists of plain values on one line (a tool's enum of
 * units is one line, not sixty), a newline at the end.
 */
export function caseFileText(testCase: TestCase): string {
  return `${formatJson(testCase, "")}\n`;
}

const inlineWidth = 100;

function formatJson(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const flat = oneLine(value);
  const plainList = Array.isArray(value) && value.every((item) => item === null || typeof item !== "object");
  if (plainList || (depth(value) <= 2 && indent.length + flat.length <= inlineWidth)) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${formatJson(item, inner)}`).join(",\n")}\n${indent}]`;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJson(item, inner)}`).join(",\n")}\n${indent}}`;
}

/** A value on one line, spaced as a person would write it: `{ "kind": "exact" }`. */
function oneLine(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return entries.length === 0 ? "{}" : `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`).join(", ")} }`;
}

/** How deeply a value nests objects and lists (a flat object is 1). */
function depth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

/** A file name for a case: its name in lower-case words, `.case.json`. */
export function caseFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${slug || "case"}.case.json`;
}
