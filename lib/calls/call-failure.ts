/** Why a call failed; each is a result the caller (or the model) can act on, not a crash. */
export type CallFailureCode =
  | "http-status" // the server answered with a status that is not success
  | "error-when" // the manifest's `error.when` matched the reply
  | "timeout" // no complete answer within timeoutMs
  | "network" // could not connect or the connection broke
  | "url-refused" // the URL guard refused the address
  | "credential-origin" // the request would have carried a credential to an origin it is not bound to
  | "template" // a template or expression in the call failed
  | "invalid-reply"; // the reply is not what the transport promised (e.g. bad JSON)

/** A call that ran and failed. Its message is safe to show a model or a person: no secrets. */
export class CallFailure extends Error {
  constructor(
    readonly code: CallFailureCode,
    message: string,
    readonly callName: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "CallFailure";
  }
}
