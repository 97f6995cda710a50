import pg from "pg";

/**
 * A pg pool that survives its server going away: a connection that breaks
 * (the server restarts, the network drops) emits an `error`, which with no
 * listener would end the process, whether the connection sat idle in the
 * pool or was checked out between two queries. Here it is only dropped; the
 * query that was using it rejects, and the next one opens a new connection.
 */
export function resilientPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ connectionTimeoutMillis: 5000, ...config });
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}
