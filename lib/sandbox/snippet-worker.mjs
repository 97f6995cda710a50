// The snippet worker's entry: it runs the very run-snippet.ts the in-thread path ran, nothing copied.
// Node 22.18 and later strip TypeScript's types themselves (process.features.typescript): the thread
// imports the .ts sources as they are, with its relative imports, written without an extension, found
// as .ts files. That starts a thread in about half the CPU time of loading tsx into it, which older
// Node still does. Everything the thread imports must therefore be erasable TypeScript: no parameter
// properties, enums or namespaces (lib/sandbox/snippet-worker.test.ts starts a thread on it).
import { registerHooks } from "node:module";

if (process.features.typescript && typeof registerHooks === "function") {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      // Only our own sources' imports: a package's resolve as they always do.
      if (specifier.startsWith(".") && context.parentURL?.endsWith(".ts") && !/\.[cm]?[jt]sx?$/.test(specifier)) {
        try {
          return nextResolve(`${specifier}.ts`, context);
        } catch {
          // Not a .ts file beside it: resolved as written.
        }
      }
      return nextResolve(specifier, context);
    },
  });
} else {
  const { register } = await import("tsx/esm/api");
  register();
}
await import("./snippet-worker-main.ts");
