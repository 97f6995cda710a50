// lib/graph: the workflow document, pure. It imports nothing of ours but types from lib/manifest.
export {
  edgeKind,
  workflowNode,
  workflowEdge,
  workflowDocument,
  parseWorkflow,
  type EdgeKind,
  type WorkflowNode,
  type WorkflowEdge,
  type Workflow,
  type WorkflowInput,
  type ParsedWorkflow,
} from "./workflow";
export {
  toolSource,
  builtinToolSource,
  customToolSource,
  mcpToolSource,
  declaredToolName,
  declaredServerId,
  type ToolSource,
  type BuiltinToolSource,
  type CustomToolSource,
  type McpToolSource,
} from "./tool-source";
export { hasGraphErrors, type GraphProblem, type GraphSeverity } from "./graph-problem";
export {
  bareNodeType,
  nodePorts,
  type NodeTypeInfo,
  type NodeTypes,
  type NodePort,
  type NodePorts,
  type PortType,
  type ConfigSchema,
  type ConfigIssue,
} from "./node-type-info";
export { nodeTypeFromManifest, catalogueNodeTypes } from "./manifest-node-type";
export {
  builtinNodes,
  builtinNodeNames,
  builtinNodeType,
  isBuiltinNodeType,
  lookupNodeType,
  taskHandle,
  type BuiltinNode,
  type BuiltinNodeName,
} from "./builtin-nodes";
export {
  inputField,
  inputFieldList,
  fieldType,
  startedOutput,
  readFields,
  fieldPorts,
  fieldOutputs,
  fieldsInputSchema,
  type InputField,
  type EntryField,
} from "./input-fields";
export {
  startTriggers,
  startTrigger,
  startFields,
  startSchedule,
  startScheduleIssues,
  webhookSignatures,
  webhookResponses,
  type StartTrigger,
  type StartConfig,
  type WebhookSignature,
} from "./start-trigger";
export { chatInputField } from "./chat-input";
export { checkFieldValues, validateRunInput, type CheckedInput } from "./run-input";
export { taskToolDefinition, toolName, type TaskToolDefinition } from "./task-tool";
export { signalFit, type SignalFit } from "./port-compatibility";
export { nodeHandles, edgeKindFor, edgeRoles, type HandleRole, type NodeHandle } from "./handles";
export { type Connection } from "./connection-check";
export { validateWorkflow } from "./validate";
export { type ConfigValidator, type ValidationOptions } from "./validation-context";
export { readConfigMessage } from "./config-rules";
export { canConnect, type ConnectVerdict } from "./can-connect";
export { loopsWithoutExit, type SignalLoop } from "./signal-loops";
export { taskSubflow, taskSubflows, topLevelNodeIds } from "./task-subflow";
export {
  createRunState,
  defaultMaxRunsPerNode,
  type RunState,
  type RunStateOptions,
  type RunGraph,
  type RunGraphNode,
  type NodeRunState,
  type NodeStatus,
  type SignalRoute,
} from "./run-state";
export { planReadyNodes, isRunFinished, type ReadyNode, type ReadyPlan } from "./plan";
export { startNodes, applyOutputs, deliverOutputs, failNode } from "./run-transitions";
export { detachedNodeIds } from "./detached-nodes";
export { configIssueInWords, settingTitle } from "./config-words";
export { mcpServerNodeType, mcpServerConnector, mcpServerChoice, wiredServerSources } from "./mcp-server-node";
export { serverUses, type ServerUse } from "./server-uses";
export { type ApprovalPolicy, type ApprovalPolicyInput, type ApprovalVerdict, approvalPolicy, approvalVerdict, defaultApprovalPolicy, policyLabel, serverApprovalDefaults, serverDefaultFor, type ServerApprovalDefaults, type ServerApprovalDefaultsInput, wiredPolicy, type WiredPolicy, wiredPolicyLabel } from "../manifest/browser";
export { checkSchedule, cronOptions, isTimeZone, missedTickPolicies, type MissedTickPolicy, type Schedule } from "./schedule-check";
