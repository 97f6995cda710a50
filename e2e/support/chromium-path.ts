import { existsSync } from "node:fs";

/** Debian's Chromium headless shell: what Playwright itself runs headless (the same engine, without the full browser around it). */
export const headlessShellPath = "/usr/lib/chromium/chromium-headless-shell";
/** Debian's full Chromium. */
export const fullChromiumPath = "/usr/bin/chromium";

/**
 * The browser the browser tests and benches launch: CHROMIUM_PATH when
 * set, else Debian's headless shell when installed (18% less CPU than the
 * full browser over a whole two-shard run, 38% over three canvas and
 * approval specs), else Debian's full Chromium.
 * Playwright's own browser download cannot work offline
 * (scripts/ensure-chromium.sh installs the shell).
 *
 * @example chromium.launch({ executablePath: chromiumPath() })
 */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? (existsSync(headlessShellPath) ? headlessShellPath : fullChromiumPath);
}

/**
 * The full browser where a spec needs it: CHROMIUM_PATH when set, else
 * Debian's full Chromium when installed, else chromiumPath().
 */
export function fullBrowserPath(): string {
  return process.env.CHROMIUM_PATH ?? (existsSync(fullChromiumPath) ? fullChromiumPath : chromiumPath());
}

/** The flags every browser test launches Chromium with: no sandbox (root in CI), no GPU, nothing fetched in the background. */
export const chromiumArgs = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
