import { chatInputField } from "../graph";
import type { RunService, StartRunResult } from "./run-service";

export interface ChatTurnRequest {
  workflowId: string;
  /** The document to run: the saved one, or the unsaved one in the playground. */
  document: unknown;
  threadId: string;
  message: string;
  by: string;
}

export type ChatTurnStart = StartRunResult | { ok: false; code: "not-chat"; error: string; field?: string; problems: [] };

/**
 * Starts one turn of a chat thread through the run service: the message goes
 * into the Start's chat field (`chatInputField`), the run is linked to the
 * thread (its turn numbered after the last) and traced like any run.
 */
export async function startChatTurn(service: RunService, request: ChatTurnRequest): Promise<ChatTurnStart> {
  const field = chatInputField(request.document);
  if (!field) {
    return { ok: false, code: "not-chat", error: "This workflow cannot be chatted with: its Start needs a text input field (named message, or its only text field) and to be run by hand.", problems: [] };
  }
  return service.start({ workflowId: request.workflowId, document: request.document, input: { [field]: request.message }, origin: { kind: "chat", by: request.by, threadId: request.threadId }, threadId: request.threadId });
}
