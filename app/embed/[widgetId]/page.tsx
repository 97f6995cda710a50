import type { Metadata } from "next";
import { EmbedChat } from "@/components/embed/embed-chat";
import { maxChatMessageChars } from "@/lib/api/chat-api";
import { publicAction } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow, readChatWidget } from "@/lib/db/app";
import { chatInputField } from "@/lib/graph";
import "@/components/chat/chat.css";
import "@/components/embed/embed.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Chat" };

/**
 * A chat widget's frame, shown on the widget's allowed origins only (the
 * proxy sets CSP frame-ancestors to them). No session: the visitor chats
 * with the widget's token (from the URL's fragment, never sent to a server)
 * under a random visitor id kept in the frame's storage. Public by design:
 * what it may do is the widget token's, checked by the chat API.
 */
export default async function EmbedPage({ params }: { params: Promise<{ widgetId: string }> }) {
  publicAction("a chat widget's frame: shown to visitors of the widget's allowed origins without an account; what it may do is the widget token's, checked by the chat API");
  const { widgetId } = await params;
  let widget, workflow;
  try {
    widget = await readChatWidget(widgetId);
    workflow = widget?.enabled ? await getWorkflow(widget.workflowId) : null;
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <p className="embed-chat embed-refused">The chat is not available right now.</p>;
  }
  if (!widget || !widget.enabled || !workflow || !chatInputField(workflow.document)) {
    return (
      <p className="embed-chat embed-refused" role="alert">
        This chat is not available: the widget does not exist or was turned off.
      </p>
    );
  }
  return <EmbedChat workflowId={widget.workflowId} title={widget.name} maxMessageChars={maxChatMessageChars} />;
}
