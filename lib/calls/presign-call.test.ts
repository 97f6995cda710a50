import { createHash, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { sharedSandbox, type Evaluator } from "../sandbox";
import type { CallContext } from "./execute-call";
import { runCalls } from "./run-calls";
import { presignAws } from "./sign-request";

// AWS's published example of a presigned URL ("Authenticating Requests: Using Query Parameters", Signature Version 4):
// GET examplebucket/test.txt, 2013-05-24T00:00:00Z, us-east-1, valid 86400 s, AWS's documentation key pair.
const example = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };

describe("presignAws matches AWS's published presigned-URL example", () => {
  it("GET https://examplebucket.s3.amazonaws.com/test.txt", () => {
    const link = presignAws(new URL("https://examplebucket.s3.amazonaws.com/test.txt"), "GET", { scheme: "awsSigV4", service: "s3", region: "us-east-1", ...example }, Date.parse("2013-05-24T00:00:00Z"), 86400);
    expect(link.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(link.searchParams.get("X-Amz-Credential")).toBe("AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request");
    expect(link.searchParams.get("X-Amz-Date")).toBe("20130524T000000Z");
    expect(link.searchParams.get("X-Amz-Expires")).toBe("86400");
    expect(link.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    expect(link.searchParams.get("X-Amz-Signature")).toBe("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
    expect(`${link.origin}${link.pathname}`).toBe("https://examplebucket.s3.amazonaws.com/test.txt");
  });
});

/**
 * A test double of S3's link check, written from the Signature V4 description
 * and independent of the signer under test: it recomputes the signature of
 * each request's query with the secret, refuses a link past its expiry, and
 * serves `object body` only to a link that checks out (else 403).
 */
async function startPresignCheckingFixture(secret: string, now: () => number): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();
  const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
    seen.push(url.toString());
    if (url.searchParams.get("list-type") === "2") {
      // A bucket listing (ListObjectsV2), answered only to a request signed in its headers.
      const signed = /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request/.test(String(request.headers.authorization));
      response.writeHead(signed ? 200 : 403, { "content-type": "application/xml" });
      response.end(signed ? "<?xml version=\"1.0\"?><ListBucketResult><Contents><Key>reports/q4.pdf</Key><Size>7</Size></Contents><Contents><Key>folder/</Key><Size>0</Size></Contents></ListBucketResult>" : "<Error/>");
      return;
    }
    const given = url.searchParams.get("X-Amz-Signature");
    const query = [...url.searchParams].filter(([name]) => name !== "X-Amz-Signature").map(([name, value]) => `${encode(name)}=${encode(value)}`).sort().join("&");
    const path = url.pathname.split("/").map((segment) => encode(decodeURIComponent(segment))).join("/");
    const canonical = [request.method, path, query, `host:${request.headers.host}`, "", "host", "UNSIGNED-PAYLOAD"].join("\n");
    const date = url.searchParams.get("X-Amz-Date") ?? "";
    const scope = (url.searchParams.get("X-Amz-Credential") ?? "").split("/").slice(1).join("/");
    const [day, region, service] = scope.split("/");
    const toSign = ["AWS4-HMAC-SHA256", date, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
    const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), "aws4_request");
    const expected = hmac(key, toSign).toString("hex");
    const signedAt = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));
    const expired = now() > signedAt + Number(url.searchParams.get("X-Amz-Expires")) * 1000;
    response.writeHead(given === expected && !expired ? 200 : 403, { "content-type": "text/plain" });
    response.end(given === expected && !expired ? "object body" : expired ? "Request has expired" : "SignatureDoesNotMatch");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server, seen };
}

describe("presign entries (a link-checking fixture server)", () => {
  let evaluator: Evaluator;
  let fixture: Awaited<ReturnType<typeof startPresignCheckingFixture>> | undefined;
  let clock = Date.parse("2026-12-01T10:00:00Z");
  const credentials = { aws: { ...example, region: "eu-west-1" } };
  beforeAll(async () => {
    evaluator = await sharedSandbox();
  });
  afterEach(async () => {
    await new Promise((resolve) => fixture?.server.close(resolve));
    fixture = undefined;
  });
  const context = (extra: Partial<CallContext> = {}): CallContext => ({ evaluator, credentials, allowedOrigins: fixture ? [new URL(fixture.url).origin] : [], now: () => clock, ...extra });
  const presignEntry = (url: string, extra: Record<string, unknown> = {}) =>
    call.parse({ name: "links", credential: { scheme: "awsSigV4", service: "s3", region: "{{ config.region }}" }, presign: { for: "return config.keys", url, expiresIn: "return config.expiry", ...extra } });

  it("makes one link per item; each is accepted by the link check, and refused once expired", async () => {
    fixture = await startPresignCheckingFixture(example.secretAccessKey, () => clock);
    const list = [presignEntry(`return '${fixture.url}/bucket/' + item.split('/').map(s => encodeURIComponent(s)).join('/')`)];
    const outcome = await runCalls(list, { config: { keys: ["reports/2026 q4.pdf", "a+b(1).txt"], expiry: 600, region: "eu-west-1" } }, context());
    const links = outcome.calls.links as string[];
    expect(links).toHaveLength(2);
    expect(links[0]).toContain("/bucket/reports/2026%20q4.pdf?");
    expect(new URL(links[0]).searchParams.get("X-Amz-Credential")).toBe("AKIAIOSFODNN7EXAMPLE/20261201/eu-west-1/s3/aws4_request");
    expect(links.join(" ")).not.toContain(example.secretAccessKey);
    expect(fixture.seen).toEqual([]); // presigning sends nothing
    for (const link of links) expect((await fetch(link)).status).toBe(200);
    const tampered = new URL(links[0]);
    tampered.searchParams.set("X-Amz-Expires", "604800");
    expect((await fetch(tampered)).status).toBe(403);
    clock += 601_000;
    expect(await (await fetch(links[1])).text()).toBe("Request has expired");
  });

  it("an S3-style pair: a signed path-style listing (XML), then one link per key it found", async () => {
    fixture = await startPresignCheckingFixture(example.secretAccessKey, () => clock);
    const signing = { scheme: "awsSigV4", service: "s3", region: "{{ config.region }}" };
    const list = [
      call.parse({ name: "list", url: `return '${fixture.url}/' + encodeURIComponent(config.bucket) + '/'`, query: { "list-type": "2" }, transport: "xml", credential: signing }),
      call.parse({
        name: "links",
        credential: signing,
        presign: { for: "return calls.list.ListBucketResult.Contents.map((o) => o.Key).filter((k) => !k.endsWith('/'))", url: `return '${fixture.url}/' + encodeURIComponent(config.bucket) + '/' + item.split('/').map(encodeURIComponent).join('/')`, expiresIn: 900 },
      }),
    ];
    const outcome = await runCalls(list, { config: { bucket: "my-bucket", region: "eu-west-1" } }, context());
    const links = outcome.calls.links as string[];
    expect(links.map((link) => new URL(link).pathname)).toEqual(["/my-bucket/reports/q4.pdf"]);
    expect(await (await fetch(links[0])).text()).toBe("object body");
  });

  it("signs the session token of temporary credentials into the link", async () => {
    fixture = await startPresignCheckingFixture(example.secretAccessKey, () => clock);
    const list = [presignEntry(`return '${fixture.url}/bucket/' + item`)];
    const outcome = await runCalls(list, { config: { keys: ["k"], expiry: 60, region: "eu-west-1" } }, context({ credentials: { aws: { ...credentials.aws, sessionToken: "session-token-value" } } }));
    const [link] = outcome.calls.links as string[];
    expect(new URL(link).searchParams.get("X-Amz-Security-Token")).toBe("session-token-value");
    expect((await fetch(link)).status).toBe(200);
  });

  it("refuses a link the URL guard refuses, one the credential may not go to, a too-long expiry and a missing credential", async () => {
    const keys = { config: { keys: ["k"], expiry: 60, region: "eu-west-1" } };
    await expect(runCalls([presignEntry("return 'http://127.0.0.1:9/bucket/' + item")], keys, context())).rejects.toMatchObject({ code: "url-refused" });
    fixture = await startPresignCheckingFixture(example.secretAccessKey, () => clock);
    const bound = [{ label: "node credential 'aws'", values: [example.accessKeyId, example.secretAccessKey], origins: ["https://s3.eu-west-1.amazonaws.com"] }];
    await expect(runCalls([presignEntry(`return '${fixture.url}/bucket/' + item`)], keys, context({ boundCredentials: bound }))).rejects.toMatchObject({ code: "credential-origin" });
    await expect(runCalls([presignEntry(`return '${fixture.url}/bucket/' + item`)], { config: { ...keys.config, expiry: 604_801 } }, context())).rejects.toThrow(/expiresIn must be a whole number of seconds from 1 to 604800/);
    const unsigned = call.parse({ name: "links", presign: { url: `${fixture.url}/bucket/k` } });
    await expect(runCalls([unsigned], keys, context())).rejects.toThrow(/needs `credential: \{ scheme: awsSigV4/);
    await expect(runCalls([presignEntry("return 'https://' + item + '/k'")], keys, context())).rejects.toThrow(/could not be prepared/);
  });
});
