import type { Severity } from "../problem";

/** The rules the loader itself applies while reading files, documented beside the lint rules. */
export const loadRules: ReadonlyArray<{ id: string; severity: Severity; summary: string }> = [
  { id: "nodes-folder-missing", severity: "error", summary: "The nodes folder exists and can be read." },
  { id: "missing-interface", severity: "error", summary: "Every node folder has an interface.yaml (an empty folder is reported, not skipped)." },
  { id: "unknown-file", severity: "warning", summary: "A node folder holds only manifest files (and docs or images); a misspelt file name gets a suggestion." },
  { id: "file-not-a-file", severity: "error", summary: "A manifest path is a file, not a folder." },
  { id: "file-unreadable", severity: "error", summary: "A manifest can be read." },
  { id: "file-too-large", severity: "error", summary: "A manifest is at most 1 MiB." },
  { id: "file-not-text", severity: "error", summary: "A manifest is UTF-8 text (no NUL bytes)." },
  { id: "yaml-syntax", severity: "error", summary: "A manifest is valid YAML without duplicate keys or excessive aliases (alias bombs are refused)." },
  { id: "unknown-key", severity: "error", summary: "Every key is one the format defines; a misspelt key gets a \"did you mean\"." },
  { id: "missing-key", severity: "error", summary: "Every required key is present." },
  { id: "invalid-value", severity: "error", summary: "Every value has the type and form its key requires." },
  { id: "ref-unknown", severity: "error", summary: "`$ref` names an existing protocol of nodes/shared/ (and fragment, with `#a/b`)." },
  { id: "ref-cycle", severity: "error", summary: "`$ref`s never lead back to themselves." },
  { id: "ref-too-deep", severity: "error", summary: "`$ref` chains are at most 10 deep." },
  { id: "ref-merge", severity: "error", summary: "A `$ref` with sibling keys names a map, so the two can be merged." },
  { id: "lint-internal", severity: "error", summary: "A lint rule failed on this node: a bug in Switchboard, reported instead of crashing the lint." },
];
