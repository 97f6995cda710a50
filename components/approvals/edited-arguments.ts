import { checkArguments } from "@/lib/manifest/browser";

export type EditedArguments = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Edited arguments as the form checks them before anything is sent: JSON,
 * and fitting the tool's input schema; the message names the field at fault
 * (e.g. "/value must be number"). The server checks again.
 */
export function checkEditedArguments(text: string, inputSchema: Record<string, unknown>, tool: string): EditedArguments {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The edited arguments are not JSON: ${(error as Error).message}` };
  }
  const checked = checkArguments(inputSchema, value);
  if (!checked.ok) return { ok: false, error: `The edited arguments do not fit ${tool}'s input schema: ${checked.message}` };
  return { ok: true, value };
}
