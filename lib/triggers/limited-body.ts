export type LimitedBody = { ok: true; body: Buffer } | { ok: false; status: 413; reason: string };

/**
 * Reads a request's raw body, refusing it once it is over `maxBytes`: at
 * once when Content-Length says so, else as soon as the streamed bytes pass
 * the limit (a sender may omit the length or send more than it says). The
 * rest is not read: the stream is cancelled.
 *
 * @example
 * const read = await readLimitedBody(request, 1024 * 1024);
 * if (!read.ok) return Response.json({ error: read.reason }, { status: read.status });
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<LimitedBody> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge(maxBytes, `Content-Length says ${declared} bytes`);
  }
  if (!request.body) return { ok: true, body: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge(maxBytes, `more than ${maxBytes} bytes arrived`);
    }
    chunks.push(value);
  }
  return { ok: true, body: Buffer.concat(chunks, size) };
}

function tooLarge(maxBytes: number, seen: string): { ok: false; status: 413; reason: string } {
  return { ok: false, status: 413, reason: `The body is over this trigger's limit of ${formatBytes(maxBytes)} (${seen}); raise "Largest body" on the Start or send less.` };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
