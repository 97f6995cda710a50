// The snippet and template evaluator: manifest strings in, values out.
export { lookupPath } from "./lookup-path";
export { insertedText, renderText, renderValue } from "./render-template";
export { SandboxError, type SandboxErrorCode, type SnippetLocation } from "./sandbox-error";
export {
  createSandbox,
  defaultMemoryBytes,
  defaultTimeoutMs,
  sharedSandbox,
  type Evaluator,
  type Sandbox,
  type SandboxOptions,
} from "./sandbox";
export { maxSnippetNesting, nestingDepth } from "./snippet-nesting";
export { TemplateError } from "./template-error";
export {
  isExpression,
  parseTemplate,
  TemplateSyntaxError,
  templatePaths,
  type ParsedTemplate,
  type TemplatePart,
  type TemplatePath,
} from "./template-syntax";
