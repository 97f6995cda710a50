import { z } from "zod";
import { apiSchemas } from "./run-api";

import { maxChatMessageChars, maxChatTitleChars } from "./chat-limits";

export { maxChatMessageChars, maxChatTitleChars };

/** POST /api/workflows/{id}/chat: a message, to a thread or (without one) to a new thread. */
export const chatTurnBody = z.object({
  threadId: z.string().min(1, "threadId must not be empty; leave it out to start a new thread.").optional(),
  message: z
    .string({ error: "message is required: the text to send." })
    .refine((text) => text.trim() !== "", "message must not be empty.")
    .refine((text) => text.length <= maxChatMessageChars, `message is longer than the limit of ${maxChatMessageChars} characters.`),
  /** The playground beside the canvas: the unsaved document to run (editors only). */
  document: z.unknown().optional(),
  place: z.enum(["canvas", "page"]).optional(),
}).register(apiSchemas, { id: "ChatTurnBody", description: `A message to a chat thread (at most ${maxChatMessageChars} characters); without threadId a new thread is started.` });

export type ChatTurnBody = z.infer<typeof chatTurnBody>;

/** PATCH /api/workflows/{id}/chat/{threadId}: rename or share. */
export const chatThreadChange = z
  .object({
    title: z
      .string()
      .refine((text) => text.trim() !== "", "title must not be empty.")
      .refine((text) => text.length <= maxChatTitleChars, `title is longer than the limit of ${maxChatTitleChars} characters.`)
      .optional(),
    shared: z.boolean({ error: "shared must be true or false." }).optional(),
  })
  .refine((change) => change.title !== undefined || change.shared !== undefined, "Give a title or shared to change.")
  .register(apiSchemas, { id: "ChatThreadChange", description: "A new title, or whether the thread is shared with everyone who may run the workflow." });

/** A chat widget as its page and the API show it (never its token: only the last four characters). */
export interface ChatWidgetRecord {
  id: string;
  workflowId: string;
  name: string;
  origins: string[];
  tokenHint: string;
  enabled: boolean;
  perMinute: number;
  /** Messages all its visitors together may send a minute. */
  overallPerMinute: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}
