import type { NextConfig } from "next";
import { securityHeaders } from "./lib/security/security-headers";

const config: NextConfig = {
  // The sandbox's wasm must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: [
    "quickjs-emscripten",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ],
  // node manifests are read from nodes/ at request time.
  outputFileTracingIncludes: { "/**": ["./nodes/**/*"] },
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tsc --noEmit, the same tsconfig) before it builds; its build
  // skips a second check. Every other build checks types as usual.
  typescript: { ignoreBuildErrors: process.env.SWITCHBOARD_TYPECHECKED === "true" },
  // CSP with frame-ancestors 'none', X-Frame-Options, nosniff, Referrer-Policy: on every response (docs/security.md).
  async headers() {
    // A chat widget's frame (/embed/<id>) gets them from the proxy, with frame-ancestors listing the widget's origins;
    // an MCP App's frame (/app-frame/<run id>) from its route, with the policy its resource declares.
    return [{ source: "/:path((?!embed/|app-frame/).*)", headers: securityHeaders({ development: process.env.NODE_ENV === "development" }) }];
  },
};

export default config;
