import { SandboxError, type SnippetLocation } from "./sandbox-error";

/**
 * JavaScript that runs INSIDE QuickJS, once per evaluation. Evaluating it
 * yields `run(names, body, scopeJson)`, which compiles the snippet as a
 * strict function of the scope's roots, calls it and turns whatever happened
 * into one tagged string, so that the host never has to inspect a guest
 * object (reading one could run a getter the snippet planted):
 *
 *   v<json>   a value            u           undefined
 *   S<l>:<c>\n<message>  syntax  N<message>  bad root names
 *   T<name>\n<message>   thrown  M<message>  memory or stack limit
 *   R<problem>           not JSON data
 *
 * The globals it needs are captured before the snippet runs, because a
 * snippet may overwrite them (only in its own runtime, which is thrown away).
 * An interrupt at the deadline is uncatchable in QuickJS, so a timeout always
 * escapes `run` and the host reports it.
 *
 * The snippet is compiled with the guest's own Function constructor, which
 * wraps the body in two header lines: hence `lineNumber - 3` below, counting
 * the "use strict" line as well. A body that closes the wrapper early only
 * runs more code inside the same sandbox, under the same limits.
 *
 * Then `eval` and every Function constructor are replaced by a function that
 * throws, so the only code ever parsed is the snippet the host has checked:
 * QuickJS's parser recurses on nesting without always checking its stack,
 * and code built at run time could be nested deep enough to overflow the
 * host's stack.
 */
export const snippetDriverSource = String.raw`(function () {
  "use strict";
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const makeFunction = Function;
  const ErrorType = Error;
  const InternalErrorType = InternalError;
  const SyntaxErrorType = SyntaxError;
  const PromiseType = Promise;
  const toText = String;
  const resourceMessages = ["out of memory", "string too long", "stack overflow"];
  const rejected = {};
  let problem = "";

  function refuse() {
    throw new TypeError("snippets cannot compile code from strings (eval, Function)");
  }
  const constructorHolders = [
    Function.prototype,
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (let index = 0; index < constructorHolders.length; index++) {
    Object.defineProperty(constructorHolders[index], "constructor", { value: refuse, writable: false, configurable: false });
  }
  Object.defineProperty(globalThis, "eval", { value: refuse, writable: false, configurable: false });
  Object.defineProperty(globalThis, "Function", { value: refuse, writable: false, configurable: false });

  // The parsers (JSON.parse, the compiler) report their stack limit as a SyntaxError.
  function isResourceError(error) {
    if (error instanceof SyntaxErrorType) return error.message === "stack overflow";
    if (!(error instanceof InternalErrorType)) return false;
    for (let index = 0; index < resourceMessages.length; index++) {
      if (error.message === resourceMessages[index]) return true;
    }
    return false;
  }

  function describe(error) {
    try {
      if (isResourceError(error)) return "M" + error.message;
      if (error instanceof ErrorType) return "T" + toText(error.name) + "\n" + toText(error.message);
      if (typeof error === "object" && error !== null) return "T\n" + stringify(error);
      return "T\n" + toText(error);
    } catch (failure) {
      if (isResourceError(failure)) return "M" + failure.message;
      return "T\na value that cannot be shown";
    }
  }

  function replacer(key, value) {
    const type = typeof value;
    if (type === "function" || type === "symbol" || type === "bigint") problem = "a " + type;
    else if (value instanceof PromiseType) problem = "a Promise (snippets run synchronously: nothing is awaited)";
    else return value;
    if (key !== "") problem += " at key '" + key + "'";
    throw rejected;
  }

  return function run(names, body, scopeJson) {
    try {
      makeFunction(names, "");
    } catch (error) {
      return "N" + toText(error.message);
    }
    let snippet;
    try {
      snippet = makeFunction(names, '"use strict";\n' + body);
    } catch (error) {
      if (isResourceError(error)) return "M" + error.message;
      if (error instanceof SyntaxErrorType) {
        return "S" + (error.lineNumber - 3) + ":" + error.columnNumber + "\n" + toText(error.message);
      }
      return describe(error);
    }
    const scope = parse(scopeJson);
    const list = names === "" ? [] : names.split(",");
    const values = [];
    for (let index = 0; index < list.length; index++) values.push(scope[list[index]]);
    let result;
    try {
      result = snippet.apply(undefined, values);
    } catch (error) {
      return describe(error);
    }
    if (result === undefined) return "u";
    let text;
    try {
      text = stringify(result, replacer);
    } catch (error) {
      if (error === rejected) return "R" + problem;
      if (isResourceError(error)) return "M" + error.message;
      return "Rsomething that cannot be turned into JSON (" + describe(error).slice(1).replace("\n", ": ") + ")";
    }
    return text === undefined ? "u" : "v" + text;
  };
})()`;

/** The limits an evaluation ran under, for the messages. */
export interface EvaluationLimits {
  timeoutMs: number;
  memoryBytes: number;
}

/**
 * Turns the driver's tagged string into the snippet's value, or throws the
 * SandboxError it describes. `body` is the snippet, to place syntax errors.
 */
export function readDriverOutcome(outcome: string, body: string, limits: EvaluationLimits): unknown {
  const tag = outcome.charAt(0);
  const rest = outcome.slice(1);
  switch (tag) {
    case "v":
      return parseResult(rest);
    case "u":
      return undefined;
    case "S":
      throw syntaxError(rest, body);
    case "T":
      throw thrownError(rest);
    case "M":
      throw limitError(rest, limits);
    case "R":
      throw new SandboxError(
        "result",
        `the snippet returned ${rest}, which is not JSON data; return objects, arrays, strings, numbers, booleans or null`,
        { reason: rest },
      );
    case "N":
      throw new SandboxError("scope", `the scope's root names cannot be parameters of a snippet: ${rest}`, { reason: rest });
    default:
      // Only a snippet that tampered with the driver's captured globals gets here.
      throw new SandboxError("result", "the snippet's result could not be read back", { reason: outcome.slice(0, 200) });
  }
}

/** JSON from the guest; `__proto__` keys are dropped so no later merge can reach a prototype. */
function parseResult(json: string): unknown {
  try {
    if (!json.includes('"__proto__"')) return JSON.parse(json);
    return JSON.parse(json, (key, value) => (key === "__proto__" ? undefined : value));
  } catch (error) {
    throw new SandboxError("result", "the snippet's result is not valid JSON", { cause: error });
  }
}

function syntaxError(rest: string, body: string): SandboxError {
  const newline = rest.indexOf("\n");
  const [line, column] = rest.slice(0, newline).split(":").map(Number);
  const reason = rest.slice(newline + 1);
  const location = placeInBody(line, column, body);
  const where = location ? ` (line ${location.line}, column ${location.column})` : "";
  return new SandboxError("syntax", `the snippet does not parse: ${reason}${where}`, { reason, location });
}

/** The parser reports positions in the wrapped source; one past the body means "at its end". */
function placeInBody(line: number, column: number, body: string): SnippetLocation | undefined {
  if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1) return undefined;
  const lines = body.split("\n");
  if (line <= lines.length) return { line, column };
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

function thrownError(rest: string): SandboxError {
  const newline = rest.indexOf("\n");
  const name = rest.slice(0, newline);
  const reason = rest.slice(newline + 1);
  return new SandboxError("thrown", `the snippet threw ${name ? `${name}: ` : ""}${reason}`, { reason });
}

/** For an engine message such as "out of memory" or "stack overflow". */
export function limitError(reason: string, limits: EvaluationLimits): SandboxError {
  if (reason === "stack overflow") {
    return new SandboxError("memory", "the snippet went past the stack limit (stack overflow): a recursion, or a value it built, nests too deep", { reason });
  }
  const mebibytes = Math.round((limits.memoryBytes / 1024 / 1024) * 100) / 100;
  return new SandboxError("memory", `the snippet went past the memory limit of ${mebibytes} MiB (${reason})`, { reason });
}
