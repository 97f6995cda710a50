import { z } from "zod";

/** The longest chat message taken, in characters; a longer one is refused with 400 naming this limit. */
export const maxChatMessageChars = 8000;

/** The longest thread title. */
export const maxChatTitleChars = 120;

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
});

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
  .refine((change) => change.title !== undefined || change.shared !== undefined, "Give a title or shared to change.");
