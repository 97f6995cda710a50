import type { Call } from "../manifest";
import { renderValue } from "../sandbox";
import { assertCredentialOrigins, checkUrl, CredentialOriginError } from "../security";
import { CallFailure } from "./call-failure";
import type { CallContext, CallReply } from "./execute-call";
import { renderAwsSigning } from "./render-request";
import { renderUrl } from "./render-url";
import { maxPresignSeconds, presignAws } from "./sign-request";

/** A presign entry never makes more links than this. */
export const maxPresignedLinks = 1000;

/**
 * `presign`: no request. One AWS Signature V4 presigned link per item of
 * `for` (or one), each URL rendered under the call URL's host rules (it reads
 * `item` and `itemIndex`), checked by the URL guard as if it were about to be
 * fetched, and refused when the signing credential is not bound to its
 * origin: a link is the credential's authority, so it may only point where
 * the credential may go. The reply is the list of links.
 */
export async function presignCall(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  const presign = call.presign;
  if (!presign) throw new Error("presignCall needs a presign entry");
  const fail = (message: string, code: "template" | "url-refused" | "credential-origin" = "template") => new CallFailure(code, `call '${call.name}': ${message}`, call.name);
  const evaluate = async (value: unknown, key: string, at: Record<string, unknown> = scope) => {
    try {
      return await renderValue(value, at, context.evaluator);
    } catch (error) {
      throw fail(`its '${key}' failed: ${(error as Error).message}`);
    }
  };
  const items = presign.for === undefined ? [null] : await evaluate(presign.for, "presign.for");
  if (!Array.isArray(items)) throw fail("presign.for did not give a list");
  if (items.length > maxPresignedLinks) throw fail(`presign.for gave ${items.length} items, more than the ${maxPresignedLinks} links allowed`);
  const expiresIn = Number(await evaluate(presign.expiresIn, "presign.expiresIn"));
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > maxPresignSeconds) {
    throw fail(`presign.expiresIn must be a whole number of seconds from 1 to ${maxPresignSeconds} (seven days), got ${JSON.stringify(expiresIn)}`);
  }
  let signing: Awaited<ReturnType<typeof renderAwsSigning>>;
  try {
    signing = await renderAwsSigning(call, scope, context.evaluator, context.credentials ?? {});
  } catch (error) {
    throw fail(`its credential could not be prepared: ${(error as Error).message}`);
  }
  if (!signing) throw fail("a presign entry needs `credential: { scheme: awsSigV4, service: … }` to sign its links");
  if (!signing.accessKeyId || !signing.secretAccessKey) throw fail("the credential has no access key id or secret access key to sign with");
  const now = context.now?.() ?? Date.now();
  const links: string[] = [];
  for (const [index, item] of items.entries()) {
    let url: URL;
    try {
      url = await renderUrl(presign.url, { ...scope, item, itemIndex: index }, context.evaluator);
    } catch (error) {
      throw fail(`link ${index + 1} could not be prepared: ${(error as Error).message}`);
    }
    const verdict = await checkUrl(url, { allowedOrigins: context.allowedOrigins });
    if (!verdict.ok) throw fail(`link ${index + 1} was refused: ${verdict.reason}`, "url-refused");
    const link = presignAws(verdict.url, presign.method, signing, now, expiresIn);
    try {
      assertCredentialOrigins(link, {}, context.boundCredentials ?? []);
    } catch (error) {
      if (error instanceof CredentialOriginError) throw fail(`link ${index + 1} was not made: ${error.message}`, "credential-origin");
      throw error;
    }
    links.push(link.toString());
  }
  return { status: 200, headers: {}, response: links };
}
