import type {
  ConfigManifest,
  EventsManifest,
  InterfaceManifest,
  RunManifest,
  ServiceManifest,
  TestManifest,
  ToolExchangeManifest,
} from "./schemas";
import type { Problem } from "./problem";

/** The files of one node folder, each parsed and checked against its schema. */
export interface NodeManifest {
  interface: InterfaceManifest;
  config?: ConfigManifest;
  service?: ServiceManifest;
  run?: RunManifest;
  events?: EventsManifest;
  /** With every `$ref` resolved and local keys layered on top. */
  toolExchange?: ToolExchangeManifest;
  test?: TestManifest;
}

export interface CatalogueNode {
  /** The folder's name. */
  name: string;
  /** The folder, relative to the catalogue's base, e.g. `nodes/weather`. */
  dir: string;
  /** null when interface.yaml is missing or broken: the node cannot be used, but it is listed. */
  manifest: NodeManifest | null;
  /** Every problem found in the folder (load and lint). */
  problems: Problem[];
}

/** Everything under nodes/: the node types and the shared protocols. */
export interface Catalogue {
  /** The absolute path of the nodes/ folder. */
  root: string;
  nodes: CatalogueNode[];
  /** Protocol stems found in nodes/shared/ (e.g. `openai-chat`). */
  protocols: string[];
  /** Every problem, in reading order, including those of nodes/shared/. */
  problems: Problem[];
}
