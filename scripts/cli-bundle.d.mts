/** Types of scripts/cli-bundle.mjs (plain JavaScript: it runs before anything is transpiled), as far as TypeScript code uses it. */
export function bundleProgram(entry: string, outfile: string, options?: { conditions?: string[] }): Promise<void>;
