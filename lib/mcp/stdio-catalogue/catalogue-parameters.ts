import { realpathSync } from "node:fs";
import path from "node:path";
import type { ParameterSpec } from "./catalogue-file";

/**
 * Whether a value may fill a declared parameter; the reason when not.
 * Whatever the type, a value is one line of at most 1000 characters and
 * never starts with `-` (the program would read it as one of its options:
 * `--require=…`, `-e …`).
 *
 * @example parameterProblem({ type: "path", within: ["/srv"] }, "/srv/../etc") // "… cannot contain '..' …"
 */
export function parameterProblem(spec: ParameterSpec, value: string): string | null {
  if (value === "") return "a value is required";
  if (value.length > 1000) return "the value is longer than 1000 characters";
  if (/[\0-\x1f\x7f]/.test(value)) return "the value cannot contain line breaks or control characters";
  if (value.startsWith("-")) return "the value cannot start with '-': the program would read it as one of its options";
  if (spec.type === "integer") return integerProblem(spec, value);
  if (spec.type === "path") return pathProblem(spec.within, value);
  if (value.length > spec.maxLength) return `the value is longer than ${spec.maxLength} characters`;
  if (spec.enum && !spec.enum.includes(value)) return `the value is one of ${spec.enum.map((item) => `'${item}'`).join(", ")}`;
  if (spec.pattern && !new RegExp(`^(?:${spec.pattern})$`, "u").test(value)) return `the value does not match the pattern ${spec.pattern}`;
  return null;
}

function integerProblem(spec: Extract<ParameterSpec, { type: "integer" }>, value: string): string | null {
  if (!/^\d{1,15}$/.test(value)) return "the value is a whole number (digits only)";
  const number = Number(value);
  if (spec.minimum !== undefined && number < spec.minimum) return `the value is at least ${spec.minimum}`;
  if (spec.maximum !== undefined && number > spec.maximum) return `the value is at most ${spec.maximum}`;
  return null;
}

/** An absolute, normalized path inside one of the folders, also once its symbolic links are followed. */
function pathProblem(within: readonly string[], value: string): string | null {
  if (!value.startsWith("/")) return "the path is absolute (it starts with /)";
  if (value.split("/").includes("..")) return "the path cannot contain '..'";
  if (path.posix.normalize(value) !== value || (value.length > 1 && value.endsWith("/"))) return "the path is written plainly (no //, /./ or trailing /)";
  const inside = (candidate: string, folders: readonly string[]) => folders.some((folder) => candidate === folder || candidate.startsWith(folder.endsWith("/") ? folder : `${folder}/`));
  if (!inside(value, within)) return `the path is within ${within.join(" or ")}`;
  const real = realOrNull(value);
  if (real !== null && !inside(real, within.map((folder) => realOrNull(folder) ?? folder))) return `the path leads outside ${within.join(" or ")} through a symbolic link`;
  return null;
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/** A parameter's default as text, if it has one. */
export function parameterDefault(spec: ParameterSpec): string | undefined {
  return spec.default === undefined ? undefined : String(spec.default);
}
