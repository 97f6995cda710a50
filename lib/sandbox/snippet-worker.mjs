// The snippet worker's entry. TypeScript is loaded through tsx (the loader `npm start`, the CLI and the
// tests already run on), so the worker runs the very run-snippet.ts the in-thread path ran, nothing copied.
import { register } from "tsx/esm/api";

register();
await import("./snippet-worker-main.ts");
