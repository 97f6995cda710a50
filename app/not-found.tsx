import Link from "next/link";

export default function NotFound() {
  return (
    <div className="page-heading">
      <h1>Not found</h1>
      <p className="lead">
        There is nothing at this address. Go back to the <Link href="/">workflows</Link> or the{" "}
        <Link href="/nodes">node catalogue</Link>.
      </p>
    </div>
  );
}
