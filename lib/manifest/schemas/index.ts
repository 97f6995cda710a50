export { jsonSchema, objectSchema, jsonSchemaTypeName, uiWidget, type JsonSchema, type ObjectSchema } from "./json-schema";
export {
  interfaceManifest,
  port,
  portType,
  nodeKind,
  nodeName,
  identifier,
  serviceConnector,
  credentialRequirement,
  type InterfaceManifest,
  type Port,
  type ServiceConnector,
  type CredentialRequirement,
} from "./interface";
export { configManifest, type ConfigManifest } from "./config";
export { call, runManifest, credentialScheme, retryPolicy, httpMethod, transport, streamingTransports, templated, type Call, type RunManifest, type CredentialScheme } from "./call";
export { serviceManifest, serviceMethod, toolAnnotations, type ServiceManifest, type ServiceMethod } from "./service";
export { eventsManifest, eventRow, type EventsManifest, type EventRow } from "./events";
export { toolExchangeManifest, adapterName, type ToolExchangeManifest } from "./tool-exchange";
export { testManifest, testCase, fixtureResponse, type TestManifest, type TestCase } from "./test-data";
