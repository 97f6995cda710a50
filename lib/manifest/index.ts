/**
 * lib/manifest's public surface: nodes/ read from disk into a typed
 * catalogue, its schemas, the lint and the importer. For server code and the
 * command lines: loading reads files. Client components import `./browser`,
 * the part safe in a browser bundle, which this re-exports.
 */
export { approvalPolicy, approvalVerdict, checkArguments, defaultApprovalPolicy, describeOriginChange, groupByCategory, loadRules, nodeSource, policyLabel, serverApprovalDefaults, serverDefaultFor, wiredPolicy, wiredPolicyLabel } from "./browser";
export type { ApprovalPolicy, ApprovalPolicyInput, ApprovalVerdict, Catalogue, CatalogueNode, ConfigManifest, JsonSchema, NodeManifest, OriginChange, Port, Problem, ServerApprovalDefaults, ServerApprovalDefaultsInput, ServiceConnector, ServiceManifest, ServiceMethod, WiredPolicy } from "./browser";
export { type Severity, formatProblem, sortProblems, hasErrors } from "./problem";
export { loadCatalogue, type LoadedCatalogue, type LoadedNode } from "./load-catalogue";
export { lintNodes, lintLoaded } from "./lint";
export { cachedCatalogue, clearCatalogueCache, type CatalogueCacheOptions } from "./catalogue-cache";
export { nodesVersion } from "./nodes-version";
export { nodeRules } from "./lint/rules";
export type { Rule } from "./lint/rule";
export { expressionUrl } from "./lint/url-origin";
export { nodeFiles, type NodeFileKey } from "./node-files";
export { renderManifestReference, spliceReference } from "./reference";
export { formatImportReport, ImportInputError, importPackages } from "./import";
export {
  interfaceManifest,
  configManifest,
  serviceManifest,
  runManifest,
  eventsManifest,
  toolExchangeManifest,
  testManifest,
  streamingTransports,
  type InterfaceManifest,
  type RunManifest,
  type EventsManifest,
  type EventRow,
  type ToolExchangeManifest,
  type TestManifest,
  type TestCase,
  type Call,
  type ObjectSchema,
  type CredentialRequirement,
} from "./schemas";
// Checking values against a manifest: arguments, config, origins.
export { compileSchema } from "./json-schema-check";
export { configValues } from "./config-values";
export { callOrigins, defaultCredentialOrigins, normalOrigin } from "./credential-origins";
export { firstPartyCredentialUsers } from "./first-party-credentials";
export { originChanges, pendingOrigins, type OriginContext, type OriginDocument } from "./origin-changes";
