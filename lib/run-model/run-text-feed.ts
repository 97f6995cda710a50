/**
 * The live channel of a run's model text in this process: an agent's model
 * publishes each piece of text as it arrives, and a follower of the run in
 * the same process (a chat, the run page, the canvas) reads it token by token. It holds nothing: the journal
 * stays the record (each model turn's whole text), and a follower in another
 * process, or one that joins late, reads the turns from there instead.
 */
export interface RunTextPiece {
  runId: string;
  nodeId: string;
  /** The model turn's journal key (`agent#1/t2`): the same key its recorded turn has. */
  turnKey: string;
  text: string;
  /** Where the piece starts in the turn's text: a follower that joined late, or heard an earlier try of the turn, knows the piece does not follow what it has. */
  offset: number;
}

/** What a text part of a run's UI message stream says of where it comes from (its `providerMetadata.switchboard`). */
export interface RunTextPlace {
  /** The agent node whose model wrote it. */
  nodeId: string;
  /** The model turn's journal key (`agent#1/t2`). */
  turnKey: string;
}

type Listener = (piece: RunTextPiece) => void;

// Kept on globalThis: Next loads this module once per bundle (the route handlers, instrumentation's
// embedded worker), and a worker's text must reach a route in the same process.
const holder = globalThis as typeof globalThis & { switchboardRunText?: Map<string, Set<Listener>> };
const listeners = (holder.switchboardRunText ??= new Map<string, Set<Listener>>());

/** Hands a piece of text to whoever follows the run here; nobody following costs a map lookup. */
export function publishRunText(piece: RunTextPiece): void {
  for (const listener of listeners.get(piece.runId) ?? []) listener(piece);
}

/**
 * Whether anyone in this process follows the run's text now: an agent asks
 * when it starts, and writes its text out live only then (a chat turn
 * always does). Nobody following costs nothing: no streamed request, no
 * offline pacing, no redaction of pieces.
 */
export function runTextFollowed(runId: string): boolean {
  return listeners.has(runId);
}

/** Follows one run's text; the returned function stops following. */
export function followRunText(runId: string, listener: Listener): () => void {
  let set = listeners.get(runId);
  if (!set) listeners.set(runId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(runId);
  };
}
