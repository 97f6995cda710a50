export type { Catalogue, CatalogueNode, NodeManifest } from "./catalogue";
export { type Problem, type Severity, formatProblem, sortProblems, hasErrors } from "./problem";
export { loadCatalogue, type LoadedCatalogue, type LoadedNode } from "./load-catalogue";
export { lintNodes, lintLoaded } from "./lint";
export { cachedCatalogue, clearCatalogueCache, type CatalogueCacheOptions } from "./catalogue-cache";
export { nodesVersion } from "./nodes-version";
export { nodeRules } from "./lint/rules";
export { loadRules } from "./lint/load-rules";
export type { Rule } from "./lint/rule";
export { nodeFiles, type NodeFileKey } from "./node-files";
export {
  interfaceManifest,
  configManifest,
  serviceManifest,
  runManifest,
  eventsManifest,
  toolExchangeManifest,
  testManifest,
  type InterfaceManifest,
  type ConfigManifest,
  type ServiceManifest,
  type ServiceMethod,
  type RunManifest,
  type EventsManifest,
  type ToolExchangeManifest,
  type TestManifest,
  type TestCase,
  type Call,
  type JsonSchema,
  type ObjectSchema,
  type Port,
  type ServiceConnector,
  type CredentialRequirement,
} from "./schemas";
