import { randomUUID } from "node:crypto";
import { hearRunFollowed, hearRunText, relayRunText, runsFollowedHere, type RunTextPiece, type RunTextRelay } from "../../run-model";
import { listenOnChannel } from "./channel-listener";

/** The Postgres channel that carries runs' live text between processes, and who follows which run. */
export const runTextChannel = "switchboard_run_text";

/** What one NOTIFY carries: a piece of a run's text, or "someone in my process follows this run". */
type RelayMessage = { from: string; piece: RunTextPiece } | { from: string; follow: string };

/**
 * The most characters of text in one NOTIFY. Postgres takes payloads under
 * 8,000 bytes and JSON may spell a character in six (`\u2028`), so a longer
 * piece goes out as several, each at its own offset.
 */
export const relayedTextLength = 1000;

export interface RunTextRelayHandle {
  /** Resolves once its LISTEN is in place (or failed: it is tried again meanwhile). */
  ready: Promise<void>;
  /** Whether it listens now. */
  readonly listening: boolean;
  /** Resolves once every piece handed to it so far has been sent (or dropped with a lost connection). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

interface Shared {
  handle: RunTextRelayHandle;
  users: number;
  stop(): Promise<void>;
}

// One relay per database in a process, shared by whoever starts it (a worker runtime, the web process's streams).
const holder = globalThis as typeof globalThis & { switchboardRunTextRelays?: Map<string, Shared> };
const relays = (holder.switchboardRunTextRelays ??= new Map<string, Shared>());

/**
 * Carries runs' live text between the processes on one Postgres database:
 * web processes, `npm run worker`s, the command line. The model's text of a
 * run a worker runs goes out as NOTIFYs on `switchboard_run_text`; a web
 * process following the run (a chat turn, the run page, the canvas) hears
 * them and streams them as if the worker ran in it. A follower's process says
 * so on the channel, so the worker's agents write live for it and send each
 * turn's text so far.
 *
 * Only ever a hint: pieces sent while a connection is down are lost, and
 * the follower takes the turn from the journal when it is recorded (the
 * stream writes only what it has not shown). Pieces are redacted before they
 * are published, as the trace is. One dedicated connection per process and
 * database both LISTENs and sends; pieces that arrive while a NOTIFY is on
 * its way go out together in the next.
 */
export function startRunTextRelay(url: string, options: { log?: (line: string) => void } = {}): RunTextRelayHandle {
  const existing = relays.get(url);
  if (existing) {
    existing.users += 1;
    return sharedHandle(url, existing);
  }
  const from = randomUUID();
  let pending: RunTextPiece[] = [];
  let sending: Promise<void> | null = null;
  const log = options.log;
  const channel = listenOnChannel(url, runTextChannel, {
    what: "runs' live text",
    ...(log ? { log } : {}),
    onNotification: (payload) => hear(payload, from),
    // Notices sent while the connection was down were lost: the runs followed here are told again.
    onListening: () => {
      for (const runId of runsFollowedHere()) send({ from, follow: runId });
    },
  });
  const send = (message: RelayMessage) => void channel.notify(JSON.stringify(message));
  const flush = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      for (const piece of batch) for (const part of partsOf(piece)) await channel.notify(JSON.stringify({ from, piece: part } satisfies RelayMessage));
    }
    sending = null;
  };
  const relay: RunTextRelay = {
    publish(piece) {
      const last = pending.at(-1);
      if (last && last.runId === piece.runId && last.turnKey === piece.turnKey && last.nodeId === piece.nodeId && last.offset + last.text.length === piece.offset) {
        pending[pending.length - 1] = { ...last, text: last.text + piece.text };
      } else {
        pending.push({ ...piece });
      }
      sending ??= flush();
    },
    follow(runId) {
      send({ from, follow: runId });
    },
  };
  const unrelay = relayRunText(relay);
  const handle: RunTextRelayHandle = {
    ready: channel.ready,
    get listening() {
      return channel.listening;
    },
    drained: async () => {
      while (sending) await sending;
    },
    close: async () => {
      unrelay();
      await handle.drained();
      await channel.close();
    },
  };
  const shared: Shared = { handle, users: 1, stop: () => handle.close() };
  relays.set(url, shared);
  return sharedHandle(url, shared);
}

/** A user's view of the shared relay: closing it stops the relay only when its last user closes. */
function sharedHandle(url: string, shared: Shared): RunTextRelayHandle {
  let closed = false;
  return {
    ready: shared.handle.ready,
    get listening() {
      return shared.handle.listening;
    },
    drained: () => shared.handle.drained(),
    async close() {
      if (closed) return;
      closed = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      if (relays.get(url) === shared) relays.delete(url);
      await shared.stop();
    },
  };
}

/** A piece cut to what one NOTIFY carries, each part at its own offset. */
function partsOf(piece: RunTextPiece): RunTextPiece[] {
  if (piece.text.length <= relayedTextLength) return [piece];
  const parts: RunTextPiece[] = [];
  let at = 0;
  while (at < piece.text.length) {
    let end = Math.min(at + relayedTextLength, piece.text.length);
    // Never between the two halves of a surrogate pair.
    if (end < piece.text.length && /[\uD800-\uDBFF]/.test(piece.text[end - 1]!)) end -= 1;
    parts.push({ ...piece, text: piece.text.slice(at, end), offset: piece.offset + at });
    at = end;
  }
  return parts;
}

/** A notice from another process; anything not shaped as ours is ignored (a hint, never trusted as a record). */
function hear(payload: string, self: string): void {
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch {
    return;
  }
  if (!message || typeof message !== "object") return;
  const { from, piece, follow } = message as { from?: unknown; piece?: unknown; follow?: unknown };
  if (typeof from !== "string" || from === self) return;
  if (typeof follow === "string") {
    hearRunFollowed(follow);
    return;
  }
  if (isPiece(piece)) hearRunText(piece);
}

function isPiece(value: unknown): value is RunTextPiece {
  if (!value || typeof value !== "object") return false;
  const piece = value as Record<string, unknown>;
  return typeof piece.runId === "string" && typeof piece.nodeId === "string" && typeof piece.turnKey === "string" && typeof piece.text === "string" && typeof piece.offset === "number" && Number.isInteger(piece.offset) && piece.offset >= 0;
}
