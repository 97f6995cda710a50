/** Next's start-up hook: the embedded worker runs inside the server process (see lib/runs/embedded-worker.ts). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportPrivateOriginSettings } = await import("./lib/security");
  reportPrivateOriginSettings((line) => console.warn(`switchboard: ${line}`));
  const { reportOidcSettings } = await import("./lib/auth/oidc/oidc");
  reportOidcSettings((line) => console.warn(`switchboard: ${line}`));
  const { relayRunTextHere, startEmbeddedWorker, startVersionTestSweeps } = await import("./lib/runs/start-up");
  startEmbeddedWorker();
  // On Postgres the runs' workers are other processes: their agents' live text reaches this server's streams.
  relayRunTextHere();
  // Version tests a stopped server left running are taken up again (their result is stored after the save answered).
  startVersionTestSweeps();
}
