import type { z } from "zod";
import {
  configManifest,
  eventsManifest,
  interfaceManifest,
  runManifest,
  serviceManifest,
  testManifest,
  toolExchangeManifest,
} from "./schemas";

/** The files a node folder may hold, each with its schema and whether `$ref` is resolved in it. */
export const nodeFiles = {
  interface: { path: "interface.yaml", schema: interfaceManifest, refs: false },
  config: { path: "config.yaml", schema: configManifest, refs: true },
  service: { path: "api/service.yaml", schema: serviceManifest, refs: true },
  run: { path: "api/run.yaml", schema: runManifest, refs: true },
  events: { path: "api/events.yaml", schema: eventsManifest, refs: true },
  toolExchange: { path: "api/toolExchange.yaml", schema: toolExchangeManifest, refs: true },
  test: { path: "test.yaml", schema: testManifest, refs: false },
} as const satisfies Record<string, { path: string; schema: z.ZodType; refs: boolean }>;

export type NodeFileKey = keyof typeof nodeFiles;
export const nodeFileKeys = Object.keys(nodeFiles) as NodeFileKey[];
export const nodeFilePaths: readonly string[] = nodeFileKeys.map((key) => nodeFiles[key].path);

/** The folder of shared protocols inside nodes/. */
export const sharedFolder = "shared";

/** The folder inside nodes/ where imported node packages go; it is not part of the repository. */
export const importedFolder = "imported";
