/** The longest chat message taken, in characters; a longer one is refused with 400 naming this limit. */
export const maxChatMessageChars = 8000;

/** The longest thread title. */
export const maxChatTitleChars = 120;
