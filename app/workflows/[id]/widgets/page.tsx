import Link from "next/link";
import { notFound } from "next/navigation";
import { createWidgetAction, deleteWidgetAction, rotateWidgetAction, setWidgetEnabledAction, updateWidgetAction } from "@/app/actions/chat-widgets";
import { ChatWidgets } from "@/components/embed/chat-widgets";
import { ErrorNotice } from "@/components/ui/error-notice";
import { requirePageRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow, listChatWidgets, listWidgetThreads } from "@/lib/db/app";
import "@/components/ui/controls.css";

export const dynamic = "force-dynamic";

/**
 * A workflow's chat widgets (editors and owners): publish the chat on other
 * sites, copy the snippet, edit the origins it may be shown on, rotate its
 * token, turn it off; and the threads its visitors started.
 */
export default async function WorkflowWidgetsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageRole("editor", `/workflows/${id}/widgets`);
  let record, widgets, threads;
  try {
    [record, widgets] = await Promise.all([getWorkflow(id), listChatWidgets(id)]);
    threads = Object.fromEntries(await Promise.all(widgets.map(async (widget) => [widget.id, await listWidgetThreads(widget.id)] as const)));
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The widgets cannot be shown">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  return (
    <div className="widgets-page">
      <p>
        <Link href={`/workflows/${encodeURIComponent(id)}`}>← {record.name}</Link> · <Link href={`/workflows/${encodeURIComponent(id)}/chat`}>Chat</Link>
      </p>
      <h1>Chat widgets of {record.name}</h1>
      <p>A widget shows this workflow&apos;s chat on another site, framed only by the origins it lists. Its token may only chat with this workflow; each visitor sees only their own threads.</p>
      <ChatWidgets
        workflowId={id}
        widgets={widgets}
        threads={threads}
        canDelete={actor.role === "owner"}
        actions={{ create: createWidgetAction, update: updateWidgetAction, setEnabled: setWidgetEnabledAction, rotate: rotateWidgetAction, remove: deleteWidgetAction }}
      />
    </div>
  );
}
