/**
 * The live channel of a run's model text: an agent's model publishes each
 * piece of text as it arrives, and a follower of the run (a chat, the run
 * page, the canvas) reads it token by token. The journal stays the record
 * (each model turn's whole text); the feed keeps only the text so far of each
 * agent's turn under way, so a follower that joins mid-turn (the run page
 * opened while the agent writes) starts from it and goes on growing.
 *
 * Within a process the feed is a set of listeners. Between processes (web
 * processes and workers on Postgres) a relay carries it (lib/db/postgres's
 * run-text relay): pieces written here go out through it, pieces written in
 * another process come in through `hearRunText`, and a follower here asks the
 * process that runs the run to write live and to send its text so far.
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

/** Carries the feed between processes. */
export interface RunTextRelay {
  /** Sends a piece written in this process to the followers in others. */
  publish(piece: RunTextPiece): void;
  /** Tells the other processes someone here follows the run: the one that runs it writes it out live and sends its text so far. */
  follow(runId: string): void;
}

/** How long a follower elsewhere keeps a run's text going out live from here without asking again. */
const followedElsewhereMs = 10 * 60_000;

// Kept on globalThis: Next loads this module once per bundle (the route handlers, instrumentation's
// embedded worker), and a worker's text must reach a route in the same process.
const holder = globalThis as typeof globalThis & { switchboardRunText?: Map<string, Set<Listener>> };
const listeners = (holder.switchboardRunText ??= new Map<string, Set<Listener>>());

/** Each live run's text so far, by agent node: the turn under way and what it has written (a new turn of the node replaces it). */
const holderSoFar = globalThis as typeof globalThis & { switchboardRunTextSoFar?: Map<string, Map<string, RunTextPiece>> };
const soFar = (holderSoFar.switchboardRunTextSoFar ??= new Map<string, Map<string, RunTextPiece>>());

const holderRelay = globalThis as typeof globalThis & { switchboardRunTextRelay?: { relays: Set<RunTextRelay>; followedElsewhere: Map<string, number> } };
const between = (holderRelay.switchboardRunTextRelay ??= { relays: new Set<RunTextRelay>(), followedElsewhere: new Map<string, number>() });

/** Carries this process's feed to and from the others through `relay` (one per database); the returned function stops it. */
export function relayRunText(relay: RunTextRelay): () => void {
  between.relays.add(relay);
  return () => {
    between.relays.delete(relay);
    if (between.relays.size === 0) between.followedElsewhere.clear();
  };
}

/** The runs someone in this process follows now (a relay tells the other processes again after its connection was lost). */
export function runsFollowedHere(): string[] {
  return [...listeners.keys()];
}

/** Hands a piece of text to whoever follows the run here and elsewhere, and keeps it as its turn's text so far. */
export function publishRunText(piece: RunTextPiece): void {
  hearRunText(piece);
  for (const relay of between.relays) relay.publish(piece);
}

/** A piece written in another process (through the relay): to whoever follows the run here, kept as its turn's text so far. */
export function hearRunText(piece: RunTextPiece): void {
  let turns = soFar.get(piece.runId);
  if (!turns) soFar.set(piece.runId, (turns = new Map()));
  const kept = turns.get(piece.nodeId);
  // A piece that follows what is kept grows it; any other (a new turn, another try of the turn) starts again from it.
  turns.set(piece.nodeId, kept && kept.turnKey === piece.turnKey && kept.offset + kept.text.length === piece.offset ? { ...kept, text: kept.text + piece.text } : piece);
  // The followers as they were: one who joins now has this piece in the text so far.
  for (const listener of [...(listeners.get(piece.runId) ?? [])]) listener(piece);
}

/** The run's live text is over (the engine is done with it, however it ended): what was kept of it goes. */
export function endRunText(runId: string): void {
  soFar.delete(runId);
  between.followedElsewhere.delete(runId);
}

/**
 * Someone in another process follows the run (through the relay): from now
 * its agents write their text out live here, as for a follower in this
 * process, and the text so far of each turn under way is sent, so the
 * follower starts from it.
 */
export function hearRunFollowed(runId: string): void {
  const now = Date.now();
  for (const [id, since] of between.followedElsewhere) if (now - since > followedElsewhereMs) between.followedElsewhere.delete(id);
  between.followedElsewhere.set(runId, now);
  for (const piece of soFar.get(runId)?.values() ?? []) for (const relay of between.relays) relay.publish(piece);
}

/**
 * Whether anyone in this process follows the run's text now: an agent asks
 * when it starts, and writes its text out live only then (a chat turn
 * always does). Nobody following costs nothing: no streamed request, no
 * offline pacing, no redaction of pieces.
 */
export function runTextFollowed(runId: string): boolean {
  if (listeners.has(runId)) return true;
  const since = between.followedElsewhere.get(runId);
  return since !== undefined && Date.now() - since <= followedElsewhereMs;
}

/** Follows one run's text (written here or, through the relay, elsewhere), starting with each turn under way as written so far; the returned function stops following. */
export function followRunText(runId: string, listener: Listener): () => void {
  let set = listeners.get(runId);
  if (!set) {
    listeners.set(runId, (set = new Set()));
    for (const relay of between.relays) relay.follow(runId);
  }
  set.add(listener);
  for (const piece of soFar.get(runId)?.values() ?? []) listener(piece);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(runId);
  };
}
