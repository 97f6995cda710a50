/** A whole number ≥ 0 from a query string parameter, its fallback when absent, or an error that names it. */
export function wholeNumber<F extends number | null>(params: URLSearchParams, name: string, fallback: F): { value: number | F } | { error: string } {
  const text = params.get(name);
  if (text === null || text === "") return { value: fallback };
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) return { error: `\`${name}\` must be a whole number ≥ 0, not "${text}".` };
  return { value };
}
