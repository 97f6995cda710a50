/**
 * The part of lib/manifest's public surface that client components and the
 * pure rooms under them (graph, canvas, policy, store) load: the catalogue's
 * types, approval policies, argument checks and origin changes. Safe in a
 * browser bundle: nothing here imports a Node module (lib/manifest/index.ts,
 * which re-exports all of it, also reads nodes/ from disk).
 */
export type { Catalogue, CatalogueNode, NodeManifest } from "./catalogue";
export type { Problem } from "./problem";
export type { ConfigManifest, JsonSchema, Port, ServiceConnector, ServiceManifest, ServiceMethod } from "./schemas";
export {
  approvalPolicy,
  approvalVerdict,
  defaultApprovalPolicy,
  policyLabel,
  serverApprovalDefaults,
  serverDefaultFor,
  wiredPolicy,
  wiredPolicyLabel,
  type ApprovalPolicy,
  type ApprovalPolicyInput,
  type ApprovalVerdict,
  type ServerApprovalDefaults,
  type ServerApprovalDefaultsInput,
  type WiredPolicy,
} from "./schemas/approval-policy";
export { groupByCategory, nodeSource } from "./catalogue-groups";
export { checkArguments } from "./json-schema-check";
export { loadRules } from "./lint/load-rules";
export { describeOriginChange, type OriginChange } from "./origin-changes";
