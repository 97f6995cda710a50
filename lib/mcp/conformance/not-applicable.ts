/**
 * Conformance scenarios that cannot apply to Switchboard, each with the
 * reason (docs/mcp-conformance.md lists the same). A scenario here that
 * fails is counted "not applicable"; any other failure fails the suite.
 */
const referenceTool = "calls a tool of the suite's reference server (test_*); a workflow endpoint offers only its own service methods and Task Starts";
const noPrompts = "prompts: a workflow endpoint offers tools only (service methods and Task Starts), no prompts";
const noResources = "resources: a workflow endpoint offers tools only, no resources";

export const serverNotApplicable: ReadonlyMap<string, string> = new Map([
  ["server-completion-complete", "completion/complete: the endpoint has no prompts or resource templates to complete"],
  ["server-logging-set-level", "logging (deprecated in 2026-07-28): the endpoint sends no log messages; the trace is where calls are recorded"],
  ["server-tools-call-with-logging", "logging (deprecated in 2026-07-28): the endpoint sends no log messages"],
  ["server-tools-call-sampling", "sampling (deprecated in 2026-07-28): a workflow never asks the host's model; its agents have their own"],
  ["server-tools-call-elicitation", "elicitation: a workflow asks its host nothing mid-call (Task Starts take their inputs up front)"],
  ["server-elicitation-sep1034-defaults", "elicitation: a workflow asks its host nothing mid-call"],
  ["server-elicitation-sep1330-enums", "elicitation: a workflow asks its host nothing mid-call"],
  ["server-tools-call-simple-text", referenceTool],
  ["server-tools-call-image", referenceTool],
  ["server-tools-call-audio", referenceTool],
  ["server-tools-call-embedded-resource", referenceTool],
  ["server-tools-call-mixed-content", referenceTool],
  ["server-tools-call-error", referenceTool],
  ["server-tools-call-with-progress", referenceTool],
  ["server-prompts-list", noPrompts],
  ["server-prompts-get-simple", noPrompts],
  ["server-prompts-get-with-args", noPrompts],
  ["server-prompts-get-embedded-resource", noPrompts],
  ["server-prompts-get-with-image", noPrompts],
  ["server-resources-list", noResources],
  ["server-resources-read-text", noResources],
  ["server-resources-read-binary", noResources],
  ["server-resources-templates-read", noResources],
  ["server-resources-subscribe", noResources],
  ["server-resources-unsubscribe", noResources],
]);

export const clientNotApplicable: ReadonlyMap<string, string> = new Map([
  ["elicitation-sep1034-client-defaults", "elicitation: Switchboard's agents call tools unattended in runs; there is no person to answer a server's form mid-call, so the client does not offer elicitation"],
]);
