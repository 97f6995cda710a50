/**
 * Text from a manifest, with `backtick` spans shown as code — the one piece
 * of markup node authors use in descriptions. Everything else stays text.
 */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  return (
    <>
      {parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}
    </>
  );
}
