"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { AppFrame } from "./app-frame";
import type { AppCallAnswer, AppCallOrigin, AppToolResult, ToolAppAnswer } from "./app-types";
import styles from "./mcp-app.module.css";

export interface ToolAppProps {
  origin: AppCallOrigin;
  toolInput: Record<string, unknown>;
  toolResult?: AppToolResult;
  load: (request: { runId: string; server: string; tool: string }) => Promise<ToolAppAnswer>;
  /** Absent where the person may not run tools: the frame's calls are then refused with that reason. */
  call?: (request: AppCallOrigin & { arguments: Record<string, unknown>; approved?: boolean }) => Promise<AppCallAnswer>;
}

interface Question {
  tool: string;
  args: Record<string, unknown>;
  reason: string;
  answer: (approved: boolean) => void;
}

const refusedResult = (reason: string): AppToolResult => ({ content: [{ type: "text", text: reason }], isError: true });

/**
 * A call's MCP App where the call is shown (the trace row, the approval
 * form, the chat bubble): the tool's UI in a sandboxed frame, or — when the
 * tool declares none — nothing, the text view stays; when its UI cannot be
 * shown, the reason, and the text view stays. A call the frame asks for
 * that its policy asks a person about is put to the person here.
 */
export function ToolApp({ origin, toolInput, toolResult, load, call }: ToolAppProps) {
  const [answer, setAnswer] = useState<ToolAppAnswer | null>(null);
  const [question, setQuestion] = useState<Question | null>(null);
  const [lastCall, setLastCall] = useState<string | null>(null);
  const { runId, server, tool } = origin;
  const originRef = useRef(origin);
  originRef.current = origin;

  useEffect(() => {
    let current = true;
    load({ runId, server, tool }).then(
      (loaded) => current && setAnswer(loaded),
      () => current && setAnswer({ kind: "error", error: "The tool's UI could not be loaded." }),
    );
    return () => {
      current = false;
    };
  }, [load, runId, server, tool]);

  const callTool = useCallback(
    async (name: string, args: Record<string, unknown>): Promise<AppToolResult> => {
      if (!call) return refusedResult("Refused: running tools needs the runner role or above.");
      let approved = false;
      for (;;) {
        const answered = await call({ ...originRef.current, tool: name, arguments: args, approved });
        if (answered.status === "called") {
          setLastCall(`The app called ${name}.`);
          return answered.result;
        }
        if (answered.status === "refused") {
          setLastCall(answered.reason);
          return refusedResult(answered.reason);
        }
        approved = await new Promise<boolean>((resolve) => setQuestion({ tool: name, args, reason: answered.reason, answer: resolve }));
        setQuestion(null);
        if (!approved) {
          setLastCall(`You denied the app's call of ${name}.`);
          return refusedResult(`Denied by the person at the app: ${name}`);
        }
      }
    },
    [call],
  );

  if (answer === null) return <p className="muted small" role="status">Looking for the tool's app…</p>;
  if (answer.kind === "none") return null;
  if (answer.kind === "error") return <p className="small" role="alert">{answer.error}</p>;
  if (answer.kind === "text") {
    return (
      <p className={`small ${styles.fallback}`} role="note">
        The tool's app is not shown: {answer.reason}. Its text result is above.
      </p>
    );
  }
  return (
    <section className={styles.app} aria-label={`App of ${tool}`}>
      <AppFrame src={answer.src} tool={tool} title={`App of tool ${tool} (${server})`} toolInput={toolInput} toolResult={toolResult} prefersBorder={answer.prefersBorder} callTool={callTool} />
      {question ? (
        <div className={styles.question} role="alertdialog" aria-label={`The app asks to call ${question.tool}`}>
          <p className="small">
            The app asks to call <code>{question.tool}</code> with <code>{JSON.stringify(question.args)}</code>. {question.reason}.
          </p>
          <button type="button" className="button" onClick={() => question.answer(true)}>
            Approve the app's call of {question.tool}
          </button>{" "}
          <button type="button" className="button button-secondary" onClick={() => question.answer(false)}>
            Deny
          </button>
        </div>
      ) : null}
      {lastCall ? (
        <p className="muted small" role="status">
          {lastCall}
        </p>
      ) : null}
    </section>
  );
}
