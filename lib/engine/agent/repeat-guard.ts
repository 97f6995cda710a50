import { canonicalJson } from "./canonical-json";

export type RepeatVerdict =
  | { action: "run" }
  /** Not run: the model is told why and may change course. */
  | { action: "refuse"; message: string }
  /** Not run, and the node ends as stuck. */
  | { action: "stop"; message: string };

/**
 * Catches an agent that goes round in circles. With `limit` = N:
 * - the Nth identical call (same tool, same arguments in any key order) is
 *   not run; the model gets a result saying so;
 * - the Nth call of a tool that keeps returning the same result is run, and
 *   the model is warned in its result;
 * - after such a refusal or warning, the next call that repeats either way
 *   ends the node as stuck.
 * Repeats need not be consecutive, so an A↔B ping-pong is caught too.
 */
export class RepeatGuard {
  private readonly calls = new Map<string, number>();
  private readonly results = new Map<string, number>();
  private warned = false;

  constructor(private readonly limit: number) {}

  /** Decides about a call before it runs. */
  before(tool: string, args: unknown): RepeatVerdict {
    const seen = this.calls.get(callKey(tool, args)) ?? 0;
    if (seen + 1 < this.limit) return { action: "run" };
    const message = `Not run: this would be call number ${seen + 1} to ${tool} with exactly the same arguments, and the earlier results are above. Use them, change the arguments, or answer.`;
    if (this.warned) return { action: "stop", message: `${message} The agent was already warned, so it stops here as stuck.` };
    this.warned = true;
    return { action: "refuse", message };
  }

  /** Records a call that ran; returns a warning to add to its result when the tool keeps answering the same. */
  after(tool: string, args: unknown, output: string): string | undefined {
    this.calls.set(callKey(tool, args), (this.calls.get(callKey(tool, args)) ?? 0) + 1);
    const key = `${tool}\u0000${output}`;
    const count = (this.results.get(key) ?? 0) + 1;
    this.results.set(key, count);
    if (count < this.limit) return undefined;
    if (this.warned) return "STOP";
    this.warned = true;
    return `Note: ${tool} has now returned this same result ${count} times. Calling it again will not change it: change approach or answer.`;
  }
}

function callKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}
