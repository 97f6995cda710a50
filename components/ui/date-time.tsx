const format = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/**
 * A moment, written the same on the server and in every browser (UTC), with
 * the machine-readable value in `dateTime`.
 */
export function DateTime({ value }: { value: Date }) {
  return <time dateTime={value.toISOString()}>{format.format(value)} UTC</time>;
}
