/**
 * Why a tool search could not be built or run:
 * - `invalid-tools`: the tool list is not an array of {server, name, description, inputSchema}
 *   (the caller's input; `place` names the item and field);
 * - `embedding-failed`: the configured embedding model threw or rejected (the world: retry, or
 *   fall back to the lexical index);
 * - `embedding-shape`: the model answered with the wrong number of vectors or of dimensions
 *   (its adapter's fault, a configuration error).
 */
export type ToolSearchErrorCode = "invalid-tools" | "embedding-failed" | "embedding-shape";

export class ToolSearchError extends Error {
  override name = "ToolSearchError";
  constructor(
    readonly code: ToolSearchErrorCode,
    message: string,
    readonly details: { place?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}
