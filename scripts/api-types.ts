/**
 * npm run api:types
 *   Writes lib/api/openapi-types.ts: the HTTP API's types generated from its
 *   OpenAPI document, for clients built with openapi-fetch. A test fails
 *   while the file is stale.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { apiTypesFile, apiTypesSource } from "../lib/api/api-types-source";

const root = path.resolve(import.meta.dirname, "..");
writeFileSync(path.join(root, apiTypesFile), await apiTypesSource());
console.log(`api:types: wrote ${apiTypesFile}`);
