/**
 * Why a snippet did not produce a value:
 * - `syntax`: the snippet does not parse (the manifest author's fault);
 * - `timeout`: it ran past its time limit;
 * - `memory`: it went past the memory limit or the stack limit;
 * - `thrown`: it threw, e.g. read a property of undefined;
 * - `result`: what it returned is not JSON data (a function, a Promise, a cycle);
 * - `scope`: the caller passed a scope that cannot go in as JSON, or a root
 *   name that is not a JavaScript identifier (our fault, not the author's);
 * - `closed`: the sandbox was disposed (our fault);
 * - `crashed`: the QuickJS engine itself failed; it was replaced, a retry may work;
 * - `unavailable`: no engine is loaded right now (just after a crash); retry shortly.
 */
export type SandboxErrorCode =
  | "syntax"
  | "timeout"
  | "memory"
  | "thrown"
  | "result"
  | "scope"
  | "closed"
  | "crashed"
  | "unavailable";

/** Where in the snippet a syntax error is, both 1-based. */
export interface SnippetLocation {
  line: number;
  column: number;
}

export interface SandboxErrorDetails {
  /** The engine's or the snippet's own words: the parser message, the thrown message. */
  reason?: string;
  /** For `syntax`: where the parser stopped. */
  location?: SnippetLocation;
  cause?: unknown;
}

/** A snippet that failed, with a message that names what went wrong. */
export class SandboxError extends Error {
  override name = "SandboxError";
  readonly code: SandboxErrorCode;
  readonly details: SandboxErrorDetails;

  constructor(code: SandboxErrorCode, message: string, details: SandboxErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.details = details;
  }

  /** True when the snippet's author can fix this; false when the fault is the caller's or the engine's. */
  get isSnippetFault(): boolean {
    return !nonSnippetCodes.has(this.code);
  }
}

const nonSnippetCodes = new Set<SandboxErrorCode>(["scope", "closed", "crashed", "unavailable"]);
