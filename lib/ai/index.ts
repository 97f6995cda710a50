// lib/ai: model protocols behind one Conversation shape. `dot-path.ts` is public on its own
// (a pure path reader, without the protocols and their SDKs).
export { type Conversation, type ConversationStart, type ModelProtocol, type ModelTurn, parseArguments, type TokenUsage, type ToolCallRequest, type ToolDefinition, type ToolResultMessage } from "./model";
export { type DeclarativeSetup, declarativeProtocol } from "./declarative-exchange";
export { offlineModel } from "./offline-model";
export { AdapterSettingsError, sdkAdapter, type SdkAdapterName, type SdkAdapterSettings } from "./sdk-adapters";
