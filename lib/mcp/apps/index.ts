// MCP Apps (the ext-apps extension) on the host side: which tools declare a
// ui:// resource, reading and checking it, and the frame's policy.
export { appContentSecurityPolicy, appFrameHeaders, checkUiResource, maxUiResourceBytes, uiResourceUriOf, type AppCsp, type ToolAppFallback, type ToolAppOutcome, type ToolAppView } from "./ui-resource";
export { listedTool, readToolApp, type ListedAppTool, type ReadToolAppOptions } from "./read-tool-app";
