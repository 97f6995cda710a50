import Link from "next/link";
import { notFound } from "next/navigation";
import { decideApproval } from "@/app/actions/approvals";
import { callToolFromApp, loadToolApp } from "@/app/actions/tool-apps";
import { ChatThreads } from "@/components/chat/chat-threads";
import { ErrorNotice } from "@/components/ui/error-notice";
import { maxChatMessageChars } from "@/lib/api/chat-api";
import { requirePageRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow, listChatThreads } from "@/lib/db/app";
import { chatInputField } from "@/lib/graph";
import "@/components/ui/controls.css";

export const dynamic = "force-dynamic";

/**
 * A workflow's chat page: the person's threads (and those shared with them)
 * at the side, the open conversation, and the message box. Each message is a
 * turn: a run of the saved workflow, linked to its thread, streamed in.
 */
export default async function WorkflowChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageRole("runner", `/workflows/${id}/chat`);
  let record, threads;
  try {
    [record, threads] = await Promise.all([getWorkflow(id), listChatThreads(id, actor.id, "page")]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The chat cannot be opened">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  const field = chatInputField(record.document);
  return (
    <div className="chat-page">
      <p>
        <Link href={`/workflows/${encodeURIComponent(id)}`}>← {record.name}</Link>
      </p>
      <h1>Chat with {record.name}</h1>
      {field ? (
        <ChatThreads
          workflowId={id}
          viewerId={actor.id}
          initialThreads={threads.map(({ id: threadId, title, shared, ownerId, updatedAt }) => ({ id: threadId, title, shared, ownerId, updatedAt }))}
          decide={decideApproval}
          toolApps={{ load: loadToolApp, call: callToolFromApp }}
          maxMessageChars={maxChatMessageChars}
          place="page"
        />
      ) : (
        <ErrorNotice title="This workflow cannot be chatted with">Its Start needs a text input field (named message, or its only text field) and to be run by hand.</ErrorNotice>
      )}
    </div>
  );
}
