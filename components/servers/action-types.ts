/**
 * What the servers' and credentials' server actions answer
 * (app/actions/servers.ts, app/actions/credentials.ts). Declared beside the
 * components that read them, so components take the actions as props and
 * never import app/ or lib/.
 */
export type ActionFailure = { ok: false; error: string; field?: string };
export type ActionResult<T extends object = object> = ({ ok: true } & T) | ActionFailure;

/** The state of a form driven by useActionState: nothing yet, or the last answer. */
export type FormState = ActionResult<{ message?: string }> | null;

/** A tool as a server lists it. */
export interface ToolItem {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  taskSupport?: string;
  /** Why the tool cannot be offered to agents, when its definition is broken. */
  problem?: string;
}

export type SecretStateName = "set" | "missing" | "unreadable";

/** The actions /servers calls. */
export interface ServerActions {
  save(previous: FormState, form: FormData): Promise<FormState>;
  remove(id: string): Promise<ActionResult>;
  test(id: string): Promise<ActionResult<{ message: string }>>;
  tools(id: string): Promise<ActionResult<{ tools: ToolItem[] }>>;
  /** OAuth: the consent page to open, or a message when nothing more is needed. */
  connect(id: string): Promise<ActionResult<{ authorizationUrl?: string; message?: string }>>;
  disconnect(id: string): Promise<ActionResult>;
}

/** The actions /credentials calls. */
export interface CredentialActions {
  save(previous: FormState, form: FormData): Promise<FormState>;
  clear(nodeType: string, name: string): Promise<ActionResult>;
}
