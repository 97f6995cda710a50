import type { WireRequest } from "./wire-server.fixture";

/** One tool call a scripted model turn makes. */
export interface ScriptedWireCall {
  /** Defaults to a vendor-looking id numbered by turn and position. */
  id?: string;
  name: string;
  /** An object (sent as JSON), or a string sent exactly as written (e.g. broken JSON). */
  arguments: unknown;
}

/** What the fixture model answers on one turn. */
export interface ScriptedWireReply {
  /** The text; a list gives the pieces a stream sends one by one. */
  text?: string | string[];
  toolCalls?: ScriptedWireCall[];
  usage?: { input: number; output: number };
}

/** A turn is a fixed reply, or one computed from the request (to answer with what a tool returned). */
export type WireReplyScript = Array<ScriptedWireReply | ((request: WireRequest, turn: number) => ScriptedWireReply)>;

/** How a stream cuts its content. */
export interface StreamCutting {
  /** Pieces each tool call's argument text is cut into (default 3). */
  argumentPieces?: number;
  /** Pieces a text given as one string is cut into (default 3). */
  textPieces?: number;
}

export const defaultUsage = { input: 21, output: 8 };

/** The reply for the `turn`th request (0-based); a request past the script's end is an error the client sees. */
export function scriptedReply(script: WireReplyScript, turn: number, request: WireRequest): ScriptedWireReply {
  const step = script[turn];
  if (step === undefined) throw new Error(`the fixture model's script has no turn ${turn + 1} (it has ${script.length})`);
  return typeof step === "function" ? step(request, turn) : step;
}

export function wholeText(reply: ScriptedWireReply): string {
  return Array.isArray(reply.text) ? reply.text.join("") : (reply.text ?? "");
}

export function textPieces(reply: ScriptedWireReply, pieces = 3): string[] {
  if (Array.isArray(reply.text)) return reply.text;
  return reply.text ? cut(reply.text, pieces) : [];
}

export function argumentText(call: ScriptedWireCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
}

/** Cuts text into at most `pieces` non-empty parts of about equal length. */
export function cut(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}
