/**
 * A manifest string that could not be rendered. `cause` is the
 * TemplateSyntaxError (a malformed `{{ }}`) or the SandboxError (a `return`
 * expression that failed) behind it.
 */
export class TemplateError extends Error {
  override name = "TemplateError";
  /** The string as written in the manifest. */
  readonly template: string;
  /** Where the string sits inside the rendered value, e.g. `body.messages.0.content`; "" at the top. */
  readonly location: string;

  constructor(template: string, location: string, cause: unknown) {
    super(`${location ? `${location}: ` : ""}cannot render ${quote(template)}: ${describe(cause)}`, { cause });
    this.template = template;
    this.location = location;
  }
}

/** Long templates are cut in the message; the full text stays in `template`. */
function quote(template: string): string {
  const shown = template.length > 80 ? `${template.slice(0, 77)}...` : template;
  return JSON.stringify(shown);
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
