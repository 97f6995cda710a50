import { z } from "zod";
import { identifier } from "./interface";

export const fixtureResponse = z.strictObject({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET").meta({ description: "The request method to answer." }),
  path: z.string().startsWith("/").meta({ description: "The request path to answer (query ignored), e.g. /v1/forecast." }),
  status: z.number().int().min(100).max(599).default(200).meta({ description: "The reply's HTTP status." }),
  headers: z.record(z.string(), z.string()).default({}).meta({ description: "The reply's headers." }),
  body: z.unknown().optional().meta({ description: "The reply: an object or list is sent as JSON, a string as written." }),
  events: z.array(z.unknown()).optional().meta({ description: "For streamed replies: each item is sent as one server-sent event." }),
});

export const testCase = z.strictObject({
  name: z.string().min(1).default("default").meta({ description: "What the case shows; the test's label (default: `default`)." }),
  config: z.record(z.string(), z.unknown()).default({}).meta({ description: "The node's config for this case; `{{ fixture.url }}` is the fixture server's address." }),
  inputs: z.record(z.string(), z.unknown()).default({}).meta({ description: "Values on the node's inputs." }),
  credentials: z.record(z.string(), z.record(z.string(), z.string())).default({}).meta({ description: "Test credential values by credential name and field (never real secrets)." }),
  user: z.record(z.string(), z.unknown()).optional().meta({ description: "The person the case runs for: the `user` root (e.g. `email`)." }),
  call: z
    .strictObject({
      method: identifier.meta({ description: "The service method to call." }),
      params: z.record(z.string(), z.unknown()).default({}).meta({ description: "Its arguments." }),
    })
    .optional()
    .meta({ description: "For service nodes: the method to call; without it the node runs as a step." }),
  fixtures: z
    .strictObject({ http: z.array(fixtureResponse).default([]).meta({ description: "One entry per request the case expects: method and path answered with status, headers and body." }) })
    .optional()
    .meta({ description: "Replies served by a fixture HTTP server on 127.0.0.1 while the case runs." }),
  live: z.boolean().default(false).meta({ description: "The case reaches the real API (no fixtures): `npm run nodes -- test` skips it unless given --live." }),
  expect: z.record(z.string(), z.string()).meta({ description: "Label → a `return` expression over `output` that must be true. `output` is the method's result (structured content when there is an outputSchema), or the outputs by name for a step; when the method or step failed it is `{ isError: true, message }`." }),
});

/** test.yaml: fixtures the node's own test runs. */
export const testManifest = z.strictObject({
  $schema: z.string().optional().meta({ description: "Ignored: an editor's schema hint." }),
  testData: z
    .union([z.array(testCase).min(1), testCase.transform((one) => [one])])
    .meta({ description: "The cases: a list, or one case written as a map (its name is then `default`)." }),
});
export type TestManifest = z.infer<typeof testManifest>;
export type TestCase = z.infer<typeof testCase>;
