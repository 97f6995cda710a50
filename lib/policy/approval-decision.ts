import { z } from "zod";

/**
 * A person's decision on a waiting call, as the journal records it under
 * `<call key>/decision`: approve (optionally with edited arguments) or deny
 * with a reason (the model receives it as the tool's error result). `by` is
 * the deciding actor (a person's name, "cli", or "timeout").
 */
export const approvalDecision = z.discriminatedUnion("action", [
  z.strictObject({ action: z.literal("approve"), arguments: z.unknown().optional(), by: z.string().min(1), at: z.string() }),
  z.strictObject({ action: z.literal("deny"), reason: z.string().trim().min(1, "say why: the model receives the reason"), by: z.string().min(1), at: z.string() }),
]);
export type ApprovalDecision = z.infer<typeof approvalDecision>;
