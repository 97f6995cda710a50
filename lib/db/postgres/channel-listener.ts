import pg from "pg";

export interface ChannelListenerOptions {
  /** Called with each notification's payload on the channel. */
  onNotification(payload: string): void;
  /** Called each time the LISTEN is in place (the first time, and after a dropped connection is reopened: what was sent meanwhile was lost). */
  onListening?(): void;
  log?: (line: string) => void;
  /** What the listening is for, in the log's words ("queued runs"). */
  what: string;
}

export interface ChannelListener {
  /** Resolves once the first LISTEN is in place (or failed: it is tried again meanwhile). */
  ready: Promise<void>;
  /** Whether the LISTEN is in place now. */
  readonly listening: boolean;
  /** Sends a NOTIFY on the channel through this connection; false when it is not open (the message is dropped: a hint, never the record). */
  notify(payload: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * One dedicated Postgres connection that LISTENs on a channel (a pooled
 * connection cannot hold a LISTEN). A dropped connection is reopened,
 * backing off up to 5 s; `onListening` runs again then, since notifications
 * sent meanwhile were lost. The first failure is logged once, and the return.
 */
export function listenOnChannel(url: string, channel: string, options: ChannelListenerOptions): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a Postgres channel name: ${channel}`);
  let client: pg.Client | null = null;
  let closed = false;
  let listening = false;
  let retryMs = 250;
  let retryTimer: NodeJS.Timeout | undefined;
  let reported = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    next.on("error", () => undefined); // followed by "end", which reconnects
    next.on("notification", (message) => {
      if (message.channel === channel) options.onNotification(message.payload ?? "");
    });
    next.on("end", () => {
      listening = false;
      if (client === next) client = null;
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => undefined);
      if (!reported) options.log?.(`cannot listen for ${options.what} (${(error as Error).message.split("\n")[0]}); trying again`);
      reported = true;
      schedule();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    listening = true;
    retryMs = 250;
    if (reported) options.log?.(`listening for ${options.what} again`);
    reported = false;
    options.onListening?.();
  };
  const schedule = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref?.();
    retryMs = Math.min(retryMs * 2, 5000);
  };

  const ready = connect();
  return {
    ready,
    get listening() {
      return listening;
    },
    async notify(payload) {
      const open = client;
      if (!open || !listening) return false;
      try {
        await open.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await ready;
      const open = client;
      client = null;
      listening = false;
      if (open) {
        open.removeAllListeners("end");
        await open.end().catch(() => undefined);
      }
    },
  };
}
