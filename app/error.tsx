"use client";

// Unexpected failures only (expected ones are shown by the page itself):
// a calm message and a retry, never a stack trace.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">Something went wrong on our side</p>
      <p>
        The page could not be shown. Try again; if it keeps failing, the server log has the details
        {error.digest ? (
          <>
            {" "}
            under <code>{error.digest}</code>
          </>
        ) : null}
        .
      </p>
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
