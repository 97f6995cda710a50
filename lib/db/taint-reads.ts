import { prisma } from "./client";
import { fromJsonText } from "./json-text";
import type { TaintSource, TaintOrigin, TaintOriginPage, TaintOverview, TaintTargetSummary } from "../trace";

/** Targets listed per kind, and origins shown with each before the person asks for more. */
export const listedTargets = 100;
export const firstOrigins = 5;
export const maxOriginPage = 100;

/**
 * The run's taint registry summarized: the tools external content came in
 * through (counted by the database), and the memory keys and outputs it
 * reached, each with how many calls it came from and the first few of them.
 * The rest of a target's origins are paged (getTaintOrigins).
 */
export async function readTaintOverview(runId: string): Promise<TaintOverview> {
  const db = prisma();
  const sources = await db.taintRecord.groupBy({ by: ["server", "tool", "source"], where: { runId, kind: "tool-result" }, _count: { _all: true }, _min: { sequence: true }, orderBy: { _min: { sequence: "asc" } } });
  const firsts = await db.taintRecord.findMany({ where: { runId, kind: "tool-result", sequence: { in: sources.map((source) => source._min.sequence ?? 0) } }, select: { sequence: true, toolCallId: true } });
  const firstCall = new Map(firsts.map((row) => [row.sequence, row.toolCallId ?? ""]));
  const targetRows = async (kind: "memory-key" | "output") =>
    db.taintRecord.findMany({ where: { runId, kind }, orderBy: [{ sequence: "asc" }, { id: "asc" }], take: listedTargets });
  const [memoryRows, outputRows, memoryKeyCount, outputCount] = await Promise.all([
    targetRows("memory-key"),
    targetRows("output"),
    db.taintRecord.count({ where: { runId, kind: "memory-key" } }),
    db.taintRecord.count({ where: { runId, kind: "output" } }),
  ]);
  const originIds = (text: string) => stringList(fromJsonText(text));
  const targets = [...memoryRows, ...outputRows].map((row) => ({ row, origins: originIds(row.origins) }));
  const known = await resolveOrigins(runId, [...new Set([...firstCall.values(), ...targets.flatMap((target) => target.origins.slice(0, firstOrigins))])]);
  const summary = ({ row, origins }: (typeof targets)[number]): TaintTargetSummary => ({
    id: row.id,
    kind: row.kind === "memory-key" ? "memory-key" : "output",
    label: row.kind === "memory-key" ? (row.key ?? "") : `${row.nodeId}.${row.output ?? ""}`,
    nodeId: row.nodeId,
    nodeRunId: row.nodeRunId,
    originCount: origins.length,
    firstOrigins: origins.slice(0, firstOrigins).map((id) => known.get(id)!),
  });
  return {
    sources: sources.map((source) => ({
      server: source.server ?? "",
      tool: source.tool ?? "",
      source: sourceOf(source.source),
      calls: source._count._all,
      first: known.get(firstCall.get(source._min.sequence ?? 0) ?? "")!,
    })),
    memoryKeys: targets.filter((target) => target.row.kind === "memory-key").map(summary),
    outputs: targets.filter((target) => target.row.kind === "output").map(summary),
    memoryKeyCount,
    outputCount,
  };
}

/** A page of one target's origins, from a cursor (the position after the last one seen); null when the run has no such entry. */
export async function readTaintOrigins(runId: string, entryId: string, options: { after?: number; limit: number }): Promise<TaintOriginPage | null> {
  const row = await prisma().taintRecord.findFirst({ where: { id: entryId, runId }, select: { origins: true } });
  if (!row) return null;
  const origins = stringList(fromJsonText(row.origins));
  const start = options.after ?? 0;
  const limit = Math.max(1, Math.min(maxOriginPage, options.limit));
  const ids = origins.slice(start, start + limit);
  const known = await resolveOrigins(runId, ids);
  return { origins: ids.map((id) => known.get(id)!), next: start + limit < origins.length ? String(start + limit) : null };
}

/** Each call id as an origin: its tool from the registry's tool-result entry or the call's row, and whether the row is written. */
async function resolveOrigins(runId: string, callIds: readonly string[]): Promise<Map<string, TaintOrigin>> {
  const ids = callIds.filter(Boolean);
  const db = prisma();
  const [results, calls] = await Promise.all([
    db.taintRecord.findMany({ where: { runId, kind: "tool-result", toolCallId: { in: ids } }, select: { toolCallId: true, server: true, tool: true, source: true } }),
    db.toolCall.findMany({ where: { runId, id: { in: ids } }, select: { id: true, server: true, tool: true } }),
  ]);
  const resultOf = new Map(results.map((result) => [result.toolCallId, result]));
  const callOf = new Map(calls.map((call) => [call.id, call]));
  const origins = new Map<string, TaintOrigin>();
  for (const callId of callIds) {
    const result = resultOf.get(callId);
    const call = callOf.get(callId);
    origins.set(callId, { callId, server: result?.server ?? call?.server ?? null, tool: result?.tool ?? call?.tool ?? null, source: result ? sourceOf(result.source) : null, inTrace: call !== undefined });
  }
  return origins;
}

function sourceOf(value: string | null): TaintSource {
  return value === "custom_tool" ? "custom_tool" : "mcp";
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
