/**
 * S3 addresses a bucket as a subdomain (`https://<bucket>.s3.<region>.amazonaws.com/<key>`),
 * which would let a config value (often a template field filled from a node's
 * inputs) choose two labels of the host. Switchboard never lets a value choose
 * a host beyond one config label inside a literal host, so the importer
 * rewrites these URLs to S3's path style, which S3 answers the same way:
 * `https://s3.<region>.amazonaws.com/<bucket>/<key>`. The host's only variable
 * part is then the region (one DNS label from config, checked at run time) and
 * the bucket is an encoded path segment.
 *
 * @example s3PathStyle("return 'https://' + config.bucket + '.s3.' + config.region + '.amazonaws.com/' + key")
 *   // "return 'https://s3.' + config.region + '.amazonaws.com/' + encodeURIComponent(config.bucket) + '/' + key"
 */
export function s3PathStyle(text: string): string {
  const match = /^(\s*return\s+)'https:\/\/'\s*\+\s*config\.([A-Za-z_$][\w$]*)\s*\+\s*'\.s3\.'\s*\+\s*config\.([A-Za-z_$][\w$]*)\s*\+\s*'\.amazonaws\.com\/'([\s\S]*)$/.exec(text);
  if (!match) return text;
  const [, lead, bucket, region, rest] = match;
  return `${lead}'https://s3.' + config.${region} + '.amazonaws.com/' + encodeURIComponent(config.${bucket}) + '/'${rest}`;
}

/**
 * Unoverse's presign entries sign with the package's AWS signer implicitly;
 * Switchboard's say so. A presign entry without a credential gets the
 * awsSigV4 credential (its service) that the node's other calls use.
 */
export function presignCredentials(calls: unknown, sources: readonly string[]): unknown {
  if (!Array.isArray(calls) || !calls.some((call) => isRecord(call) && "presign" in call && !("credential" in call))) return calls;
  const service = sources.map((text) => /"scheme":"awsSigV4","service":"([a-z0-9-]+)"/.exec(text)?.[1]).find(Boolean) ?? "s3";
  return calls.map((call) => (isRecord(call) && "presign" in call && !("credential" in call) ? { ...call, credential: { scheme: "awsSigV4", service } } : call));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
