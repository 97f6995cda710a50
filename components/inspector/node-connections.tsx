"use client";

import { type FormEvent, useId, useMemo, useState } from "react";
import type { HandleChoices } from "@/lib/canvas";

/**
 * "Connect": the node's handles and, for the chosen one, every far end the
 * workflow's rules accept, joined with one button. The same edge a drag or
 * two taps would draw, at the size of the page whatever the canvas's zoom,
 * and from the keyboard alone: the equal of the handles when they are too
 * close to aim at (ports sit 20 px apart) or the canvas is far out.
 */
export function NodeConnections({
  nodeId,
  listChoices,
  revision,
  onConnect,
}: {
  nodeId: string;
  /** The node's handles with the far ends each may be joined to now (lib/canvas connectionChoices). */
  listChoices: () => HandleChoices[];
  /** Changes whenever the document does, so the lists are made again. */
  revision: unknown;
  onConnect: (handle: string, far: { nodeId: string; handle: string }) => boolean;
}) {
  const [open, setOpen] = useState(false);
  const [handle, setHandle] = useState("");
  const [far, setFar] = useState("");
  const id = useId();
  // Only while open: a node's choices check every handle of every other node.
  const handles = useMemo(() => (open ? listChoices() : []), [open, listChoices, revision]);
  const chosen = handles.find((entry) => entry.handle === handle) ?? handles[0];
  const farChoice = chosen?.choices.find((choice) => `${choice.nodeId}\u0000${choice.handle}` === far) ?? chosen?.choices[0];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen && farChoice && onConnect(chosen.handle, { nodeId: farChoice.nodeId, handle: farChoice.handle })) setFar("");
  }

  return (
    <details className="inspector-connect" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Connect to another node</summary>
      {!open ? null : handles.length === 0 ? (
        <p className="muted small">Nothing more can be joined to {nodeId}: every handle is connected, or no other node fits.</p>
      ) : (
        <form className="inspector-connect-form" aria-label={`Connect ${nodeId}`} onSubmit={submit}>
          <div className="form-field">
            <label htmlFor={`${id}-handle`}>Handle of {nodeId}</label>
            <select id={`${id}-handle`} value={chosen?.handle ?? ""} onChange={(event) => (setHandle(event.target.value), setFar(""))}>
              {handles.map((entry) => (
                <option key={entry.handle} value={entry.handle}>
                  {entry.label}
                </option>
              ))}
            </select>
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-far`}>Join it to</label>
            <select id={`${id}-far`} value={farChoice ? `${farChoice.nodeId}\u0000${farChoice.handle}` : ""} onChange={(event) => setFar(event.target.value)}>
              {chosen?.choices.map((choice) => (
                <option key={`${choice.nodeId}\u0000${choice.handle}`} value={`${choice.nodeId}\u0000${choice.handle}`}>
                  {choice.label}
                  {choice.warning ? " (with a warning)" : ""}
                </option>
              ))}
            </select>
            {farChoice?.warning ? <p className="field-hint">{farChoice.warning}</p> : null}
          </div>
          <button type="submit">Connect</button>
        </form>
      )}
    </details>
  );
}
