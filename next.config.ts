import type { NextConfig } from "next";

const config: NextConfig = {
  // The sandbox's wasm must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: [
    "quickjs-emscripten",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
    // The Postgres queue (scale-out mode): loaded from node_modules at run time.
    "pg-boss",
  ],
  // node manifests are read from nodes/ at request time.
  outputFileTracingIncludes: { "/**": ["./nodes/**/*"] },
  poweredByHeader: false,
};

export default config;
