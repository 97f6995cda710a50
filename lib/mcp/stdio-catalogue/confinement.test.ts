import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEntry } from "../connect-entry";
import { ProcessGroupStdioTransport } from "../process-group-transport";
import type { ServerPolicy } from "../registry";
import { serverEverythingLine } from "../server-everything";
import { cataloguedCommand, findBubblewrap, launchOf } from "./catalogued-command";
import { stdioCatalogueFromText } from "./read-catalogue";

const bubblewrap = findBubblewrap();
// Not under /tmp: a confined server gets a private, empty /tmp.
const folder = mkdtempSync(path.join(os.homedir(), ".switchboard-confined-"));
const writable = path.join(folder, "writable");
mkdirSync(writable);
const probe = path.join(folder, "probe.js");
const everything = serverEverythingLine();

/** What the probe tries from inside: write beside itself, write where the catalogue allows, reach a loopback server, see other processes. */
writeFileSync(
  probe,
  `const fs = require("node:fs"); const net = require("node:net");
const result = {};
const attempt = (name, work) => { try { work(); result[name] = "done"; } catch (error) { result[name] = error.code ?? String(error); } };
attempt("writeBeside", () => fs.writeFileSync(${JSON.stringify(path.join(folder, "escaped"))}, "x"));
attempt("writeAllowed", () => fs.writeFileSync(${JSON.stringify(path.join(writable, "kept"))}, "x"));
attempt("writeHome", () => fs.writeFileSync(require("node:os").homedir() + "/.switchboard-probe", "x"));
attempt("writeTmp", () => fs.writeFileSync("/tmp/private", "x"));
attempt("seeHostTmp", () => { if (!fs.existsSync(${JSON.stringify(os.tmpdir())} + "/" + ${JSON.stringify("switchboard-host-marker")})) throw Object.assign(new Error(), { code: "ENOENT" }); });
result.processes = fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name)).length;
const socket = net.connect(Number(process.argv[2]), "127.0.0.1");
socket.on("connect", () => finish("connected"));
socket.on("error", (error) => finish(error.code));
function finish(network) { result.network = network; process.stderr.write(JSON.stringify(result) + "\\n"); process.exit(0); }
`,
);

const catalogue = (network: "none" | "full") =>
  stdioCatalogueFromText(
    JSON.stringify({
      servers: {
        probe: { title: "Probe", command: "node", args: [probe, "{{ port }}"], parameters: { port: { type: "integer", minimum: 1, maximum: 65535 } }, confine: { network, writable: [writable] } },
        everything: { title: "Everything, confined", command: "node", args: everything.args, confine: { network: "none" } },
      },
    }),
    { file: "/etc/switchboard.stdio.json" },
  );

let server: http.Server;
let port: number;
const hostMarker = path.join(os.tmpdir(), "switchboard-host-marker");
beforeAll(async () => {
  writeFileSync(hostMarker, "the host's /tmp");
  server = http.createServer((_request, response) => response.end("reached"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
  rmSync(hostMarker, { force: true });
});

/** Runs the probe through the stdio transport, as a server would run, and reads its report. */
async function runProbe(network: "none" | "full"): Promise<Record<string, unknown>> {
  const verdict = cataloguedCommand({ command: "node", args: [probe, String(port)] }, {}, catalogue(network));
  if (!verdict.ok) throw new Error(verdict.reason);
  const transport = new ProcessGroupStdioTransport({ command: verdict.command, baseEnv: { PATH: process.env.PATH ?? "", HOME: os.homedir() } });
  let output = "";
  transport.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await transport.start();
  await closed;
  return JSON.parse(output.trim().split("\n").at(-1) ?? "{}");
}

describe.skipIf(!bubblewrap)(`a confined catalogue entry under bubblewrap${bubblewrap ? "" : " (SKIPPED: bubblewrap is not installed; apt-get install bubblewrap)"}`, () => {
  it("sees a read-only file system apart from its writable folders, no network, and only its own processes", async () => {
    const report = await runProbe("none");
    expect(report).toMatchObject({ writeBeside: "EROFS", writeAllowed: "done", writeHome: "EROFS", writeTmp: "done", seeHostTmp: "ENOENT" });
    expect(report.network).not.toBe("connected");
    expect(report.processes).toBeLessThanOrEqual(3);
    expect(existsSync(path.join(folder, "escaped"))).toBe(false);
    expect(existsSync(path.join(writable, "kept"))).toBe(true);
  });

  it('with network "full" reaches the machine\'s network (bubblewrap cannot filter by host), the file system still read-only', async () => {
    const report = await runProbe("full");
    expect(report).toMatchObject({ writeBeside: "EROFS", network: "connected" });
  });

  it("runs a real MCP server confined: server-everything answers over stdio", async () => {
    const policy: ServerPolicy = { stdioDisabled: false, allowedPrivateOrigins: [], stdioCatalogue: catalogue("none") };
    const connection = await connectEntry({ id: "everything", name: "Everything", transport: "stdio", ...everything, timeoutMs: 20_000, maxRetries: 0, enabled: true }, { policy });
    try {
      expect(connection.client.serverVersion()?.name).toMatch(/everything/);
    } finally {
      await connection.close();
    }
  });
});

describe("a confined entry on a machine without bubblewrap", () => {
  it("does not start at all, and says how to install it", () => {
    const verdict = cataloguedCommand({ command: "node", args: [probe, "80"] }, {}, catalogue("none"));
    if (!verdict.ok) throw new Error(verdict.reason);
    expect(() => launchOf(verdict.command, "/nonexistent")).toThrow(/runs confined, and bubblewrap \(bwrap\) is not installed on this machine \(Debian: apt-get install bubblewrap\)/);
  });

  it("a command not made by the catalogue is refused by the transport (a cast is not enough)", () => {
    const forged = { catalogueEntry: "x", executable: "/bin/sh", args: ["-c", "id"], env: {}, confine: undefined };
    expect(() => new ProcessGroupStdioTransport({ command: forged as never, baseEnv: {} })).toThrow(/only a command from the stdio catalogue/);
  });
});
