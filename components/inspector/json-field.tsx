"use client";

import { useEffect, useId, useState } from "react";
import { type FieldProps, FieldFrame, labelOf } from "./field-frame";

/** Anything else (objects, arrays of values): JSON text, checked as it is typed. */
export function JsonField(props: FieldProps) {
  const id = `${props.idPrefix}-${useId()}`;
  const stored = props.value === undefined ? "" : JSON.stringify(props.value, null, 2);
  const [draft, setDraft] = useState(stored);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setDraft((current) => {
      try {
        return current.trim() !== "" && JSON.stringify(JSON.parse(current)) === JSON.stringify(props.value) ? current : stored;
      } catch {
        return current;
      }
    });
  }, [stored, props.value]);
  const placeholder = props.schema.default !== undefined ? JSON.stringify(props.schema.default) : undefined;
  return (
    <FieldFrame id={id} label={labelOf(props)} props={{ ...props, messagesFor: (path) => [...(local ? [local] : []), ...props.messagesFor(path, true)] }}>
      {(describedBy, invalid) => (
        <textarea
          id={id}
          className="code-input"
          rows={4}
          value={draft}
          placeholder={placeholder}
          spellCheck={false}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            if (text.trim() === "") {
              setLocal(null);
              return props.onChange(props.path, undefined);
            }
            try {
              const parsed = JSON.parse(text);
              setLocal(null);
              props.onChange(props.path, parsed);
            } catch (error) {
              setLocal(`not valid JSON yet: ${(error as Error).message}`);
            }
          }}
        />
      )}
    </FieldFrame>
  );
}

