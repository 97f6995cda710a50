"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { type ToolCallRecord, type CallDetail, type CallPage, type CallSummary, type TraceChanges, type TraceFilters, type TraceOverview, type TurnPage, filtersKey, mergeTraceChanges, noFilters, type TraceRow, type TraceTurn } from "@/lib/trace/browser";

export const pollIntervalMs = 500;
/** Calls fetched per page as rows scroll into view; pages start at multiples of it, so two requests never overlap. */
export const pageCalls = 100;
/** Model turns fetched per page, the same way. */
export const pageTurns = 100;

export type DetailState = { state: "loading" } | { state: "ready"; call: ToolCallRecord } | { state: "error"; message: string };

/** Loaded calls of one filter: group → position → call. */
type Windows = Map<string, Map<number, CallSummary>>;
/** Loaded model turns (turns show with no filter only): node run → turn number → turn. */
type TurnWindows = Map<string, Map<number, TraceTurn>>;

export interface TraceData {
  /** The newest answer for the filters shown (the last filters' until the new ones' answer arrives). */
  overview: TraceOverview;
  /** The newest answer of any filters: the run, its node runs, totals and taint. */
  latest: TraceOverview;
  filters: TraceFilters;
  setFilters: (filters: TraceFilters) => void;
  /** The loaded call at a position of a group, under the shown overview's filters. */
  loaded: (group: string, position: number) => CallSummary | undefined;
  /** The loaded model turn of a node run by its number. */
  loadedTurn: (group: string, index: number) => TraceTurn | undefined;
  /** Bumps whenever calls or turns were loaded (a dependency for what reads `loaded` and `loadedTurn`). */
  loadedVersion: number;
  /** Fetches the pages of the pending rows (calls and turns) among these. */
  loadRows: (rows: readonly TraceRow[]) => void;
  details: ReadonlyMap<string, DetailState>;
  loadDetail: (callId: string) => void;
  /** Fetches a call in full and places it in the unfiltered tree; its node run id, or null when it cannot be found. */
  locateCall: (callId: string) => Promise<CallSummary | null>;
  error: string | null;
}

/**
 * The trace page's data: the first answer from the server, then pages of
 * calls as rows scroll into view, a call in full when it is opened, another
 * first answer when the filters change, and, while the run runs, what
 * changed since the last answer every ~500 ms (GET …?since=<cursor>: the
 * new calls at their positions, new turns as pending rows at the end of
 * their node run, which load like the others). A failed request is reported
 * and retried, never fatal. One poll at a time: the next waits for the last.
 */
export function useTraceData(initial: TraceOverview): TraceData {
  const runId = initial.run.id;
  const base = `/api/runs/${encodeURIComponent(runId)}`;
  const [filters, setFilters] = useState<TraceFilters>(initial.filters);
  const [overviews, setOverviews] = useState<ReadonlyMap<string, TraceOverview>>(() => new Map([[filtersKey(initial.filters), initial]]));
  const [latest, setLatest] = useState(initial);
  const [shownKey, setShownKey] = useState(filtersKey(initial.filters));
  const windows = useRef<Map<string, Windows>>(null as unknown as Map<string, Windows>);
  windows.current ??= placeInto(new Map(), filtersKey(initial.filters), initial.pages);
  const turnWindows = useRef<TurnWindows>(null as unknown as TurnWindows);
  turnWindows.current ??= placeTurns(new Map(), initial.turnPages ?? []);
  const inFlight = useRef(new Set<string>());
  const [loadedVersion, setLoadedVersion] = useState(0);
  const [details, setDetails] = useState<ReadonlyMap<string, DetailState>>(() => new Map());
  const [error, setError] = useState<string | null>(null);

  const place = useCallback((key: string, pages: readonly CallPage[]) => {
    placeInto(windows.current, key, pages);
    setLoadedVersion((version) => version + 1);
  }, []);

  const receive = useCallback(
    (overview: TraceOverview) => {
      const key = filtersKey(overview.filters);
      placeTurns(turnWindows.current, overview.turnPages ?? []);
      place(key, overview.pages);
      setOverviews((current) => new Map(current).set(key, overview));
      setLatest((current) => (overview.readAt >= current.readAt ? overview : current));
    },
    [place],
  );

  const fetchOverview = useCallback(
    async (wanted: TraceFilters) => {
      const query = filtersKey(wanted);
      const overview = await getJson<TraceOverview>(`${base}${query ? `?${query}` : ""}`);
      receive(overview);
      return overview;
    },
    [base, receive],
  );

  // The answers held, by filters, for a poll to bring up to date (state updates land after render).
  const overviewsRef = useRef(overviews);
  overviewsRef.current = overviews;

  /** What changed since the answer held for these filters, merged into it; a whole first answer when none is held. */
  const fetchChanges = useCallback(
    async (wanted: TraceFilters) => {
      const query = filtersKey(wanted);
      const held = overviewsRef.current.get(query);
      if (!held?.cursor) return fetchOverview(wanted);
      const changes = await getJson<TraceChanges>(`${base}?since=${encodeURIComponent(held.cursor)}${query ? `&${query}` : ""}`);
      const current = overviewsRef.current.get(query) ?? held;
      // Another answer landed meanwhile (the filters' own first answer): its cursor is the one to go on from.
      if (current.cursor !== changes.since) return current;
      const merged = mergeTraceChanges(current, changes);
      overviewsRef.current = new Map(overviewsRef.current).set(query, merged);
      receive(merged);
      return merged;
    },
    [base, fetchOverview, receive],
  );

  // New filters: their first answer, then show them.
  const wantedKey = filtersKey(filters);
  useEffect(() => {
    let stale = false;
    if (wantedKey === shownKey) return;
    fetchOverview(filters)
      .then(() => {
        if (!stale) setShownKey(wantedKey);
        setError(null);
      })
      .catch((failure: Error) => !stale && setError(`The filtered trace cannot be loaded: ${failure.message}`));
    return () => {
      stale = true;
    };
    // `filters` is what `wantedKey` says.
  }, [wantedKey, shownKey, fetchOverview]);

  // Live: what changed, every ~500 ms while the run runs.
  // A queued run is followed too: a worker takes it up in a moment.
  const running = latest.run.status === "running" || latest.run.status === "queued";
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const overview = await fetchChanges(filtersRef.current);
        if (stopped) return;
        setError(null);
        if (overview.run.status !== "running" && overview.run.status !== "queued") return;
      } catch (failure) {
        if (stopped) return;
        setError(`Live updates paused: ${(failure as Error).message}. Retrying…`);
      }
      timer = setTimeout(poll, pollIntervalMs);
    };
    timer = setTimeout(poll, pollIntervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [running, fetchChanges]);

  const overview = overviews.get(shownKey) ?? initial;
  const loaded = useCallback((group: string, position: number) => windows.current.get(shownKey)?.get(group)?.get(position), [shownKey]);
  const loadedTurn = useCallback((group: string, index: number) => turnWindows.current.get(group)?.get(index), []);

  const loadRows = useCallback(
    (rows: readonly TraceRow[]) => {
      const key = shownKey;
      const query = filtersKey(overview.filters);
      const starts = new Map<string, { group: string; start: number }>();
      for (const row of rows) {
        if (row.kind !== "pending") continue;
        const start = row.position - (row.position % pageCalls);
        starts.set(`${key}|${row.group}|${start}`, { group: row.group, start });
      }
      const turnStarts = new Map<string, { group: string; start: number }>();
      for (const row of rows) {
        if (row.kind !== "pending-turn") continue;
        const start = row.index - (row.index % pageTurns);
        turnStarts.set(`turns|${row.group}|${start}`, { group: row.group, start });
      }
      for (const [flight, { group, start }] of turnStarts) {
        if (inFlight.current.has(flight)) continue;
        inFlight.current.add(flight);
        getJson<TurnPage>(`${base}/turns?group=${encodeURIComponent(group)}&offset=${start}&limit=${pageTurns}`)
          .then((page) => {
            placeTurns(turnWindows.current, [page]);
            setLoadedVersion((version) => version + 1);
            setError(null);
          })
          .catch((failure: Error) => setError(`Model turns of the trace cannot be loaded: ${failure.message}`))
          .finally(() => inFlight.current.delete(flight));
      }
      for (const [flight, { group, start }] of starts) {
        if (inFlight.current.has(flight)) continue;
        inFlight.current.add(flight);
        // After the call before the page when it is loaded (a cursor), else at the page's position.
        const before = start > 0 ? windows.current.get(key)?.get(group)?.get(start - 1) : undefined;
        const from = before ? `after=${before.sequence}` : `offset=${start}`;
        getJson<CallPage>(`${base}/calls?group=${encodeURIComponent(group)}&${from}&limit=${pageCalls}${query ? `&${query}` : ""}`)
          .then((page) => {
            place(key, [page]);
            setError(null);
          })
          .catch((failure: Error) => setError(`Calls of the trace cannot be loaded: ${failure.message}`))
          .finally(() => inFlight.current.delete(flight));
      }
    },
    [base, overview.filters, place, shownKey],
  );

  const fetchDetail = useCallback(
    async (callId: string): Promise<CallDetail> => {
      setDetails((current) => (current.get(callId)?.state === "ready" ? current : new Map(current).set(callId, { state: "loading" })));
      try {
        const detail = await getJson<CallDetail>(`${base}/calls/${encodeURIComponent(callId)}`);
        setDetails((current) => new Map(current).set(callId, { state: "ready", call: detail.call }));
        return detail;
      } catch (failure) {
        setDetails((current) => new Map(current).set(callId, { state: "error", message: (failure as Error).message }));
        throw failure;
      }
    },
    [base],
  );

  const loadDetail = useCallback(
    (callId: string) => {
      if (details.get(callId)?.state === "ready") return;
      fetchDetail(callId).catch(() => undefined);
    },
    [details, fetchDetail],
  );

  const locateCall = useCallback(
    async (callId: string) => {
      try {
        const { call, group, position } = await fetchDetail(callId);
        const { arguments: _arguments, result: _result, ...summary } = call;
        place(filtersKey(noFilters), [{ group, offset: position, calls: [summary], next: null }]);
        return summary;
      } catch {
        return null;
      }
    },
    [fetchDetail, place],
  );

  return { overview, latest, filters, setFilters, loaded, loadedTurn, loadedVersion, loadRows, details, loadDetail, locateCall, error };
}

/** Puts the calls of pages at their positions (a position never changes its call, so a page may land twice). */
function placeInto(all: Map<string, Windows>, key: string, pages: readonly CallPage[]): Map<string, Windows> {
  let filterWindows = all.get(key);
  if (!filterWindows) all.set(key, (filterWindows = new Map()));
  for (const page of pages) {
    let group = filterWindows.get(page.group);
    if (!group) filterWindows.set(page.group, (group = new Map()));
    for (const [index, call] of page.calls.entries()) group.set(page.offset + index, call);
  }
  return all;
}

/** Puts turns at their numbers (a number never changes its turn). */
function placeTurns(all: TurnWindows, pages: readonly TurnPage[]): TurnWindows {
  for (const page of pages) {
    let group = all.get(page.group);
    if (!group) all.set(page.group, (group = new Map()));
    for (const [index, turn] of page.turns.entries()) group.set(page.offset + index, turn);
  }
  return all;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  const body = (await response.json().catch(() => ({ error: `the server answered ${response.status}` }))) as T | { error: string };
  // A refusal is a status and `{ error }`; a run's answer carries its own `error` (null, or why it failed).
  if (!response.ok) {
    const error = typeof body === "object" && body !== null && "error" in body ? (body as { error: unknown }).error : null;
    throw new Error(typeof error === "string" ? error : `the server answered ${response.status}`);
  }
  return body as T;
}
