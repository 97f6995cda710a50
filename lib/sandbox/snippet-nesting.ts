/**
 * How deep a snippet may nest brackets. QuickJS's parser recurses once per
 * level and does not always check its stack, so a body such as `[[[[…` a
 * hundred thousand deep overflowed the host's stack instead of failing to
 * parse. Real snippets stay far below this.
 */
export const maxSnippetNesting = 100;

/**
 * The deepest nesting of `(`, `[` and `{` in a snippet, counted without
 * lexing: brackets inside strings and comments count too, which can only
 * overestimate, never let a deep snippet through.
 *
 * @example nestingDepth("return f([a, {b}])") // 3
 */
export function nestingDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < source.length; index++) {
    const character = source.charCodeAt(index);
    if (character === 40 || character === 91 || character === 123) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if ((character === 41 || character === 93 || character === 125) && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}
