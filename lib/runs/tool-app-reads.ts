import { createHash } from "node:crypto";
import type { ToolAppOutcome } from "../mcp";

/** How long a tool's UI, once read from its server, is served again without asking it. */
export const toolAppReadMs = 60_000;
/** The most UIs kept (each at most 2 MiB of HTML). */
export const toolAppReadsKept = 16;

interface Kept {
  at: number;
  outcome: ToolAppOutcome | null;
}

/**
 * The UIs of tools read lately, by what they were read from: the server's
 * checked registry entry and secrets (hashed, never kept in clear) and the
 * tool (null: the tool declares none). Showing an app asks for it twice within a second (once to decide to
 * frame it, once by the frame's own route), and the trace shows the same
 * tool on many rows: the server is asked once a minute at most. What the
 * viewer may see is decided before the cache is asked, every time; a read
 * that failed (the server unreachable) is not kept; a changed entry or
 * secret reads again at once.
 */
export class ToolAppReads {
  readonly #kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  async read(source: { entry: unknown; secretValues: Record<string, string>; tool: string }, ask: () => Promise<{ outcome: ToolAppOutcome | null; keep: boolean }>): Promise<ToolAppOutcome | null> {
    const key = createHash("sha256").update(JSON.stringify([source.entry, Object.entries(source.secretValues).sort(), source.tool])).digest("hex");
    const kept = this.#kept.get(key);
    if (kept && this.now() - kept.at < toolAppReadMs) return kept.outcome;
    this.#kept.delete(key);
    const { outcome, keep } = await ask();
    if (keep) {
      this.#kept.set(key, { at: this.now(), outcome });
      // The oldest go first.
      for (const oldest of this.#kept.keys()) {
        if (this.#kept.size <= toolAppReadsKept) break;
        this.#kept.delete(oldest);
      }
    }
    return outcome;
  }
}
