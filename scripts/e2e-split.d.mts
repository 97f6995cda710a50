/** Types of scripts/e2e-split.mjs (plain JavaScript: it runs before anything is transpiled). */
export function splitByDuration(files: readonly string[], seconds: Readonly<Record<string, number>>, shards: number): string[][];
export function specFiles(root: string, dir?: string): string[];
export function readDurations(root: string): Record<string, number>;
export function fileFilter(file: string): string;
