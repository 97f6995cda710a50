import { InlineCode } from "@/components/ui/inline-code";
import { parameterRows, type ParameterRow } from "./schema-rows";
import type { JsonSchema } from "@/lib/manifest/browser";

/** Enum values shown before the rest fold away. */
const visibleValues = 8;

/** A JSON Schema object's properties as a readable table: name, type, required, description. */
export function ParameterTable({
  caption,
  schema,
  emptyText = "No parameters.",
}: {
  caption: string;
  schema: { properties?: Record<string, JsonSchema>; required?: string[] };
  emptyText?: string;
}) {
  const rows = parameterRows(schema);
  if (rows.length === 0) return <p className="muted small">{emptyText}</p>;
  return (
    <div className="table-scroll">
      <table className="parameter-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row" className="parameter-name" style={{ paddingInlineStart: `${0.75 + row.depth * 1.1}rem` }}>
                <code>{row.name}</code>
              </th>
              <td>
                <code className="type">{row.type}</code>
              </td>
              <td>{row.required ? <span className="required">required</span> : <span className="muted">optional</span>}</td>
              <td>
                <ParameterDescription row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ParameterDescription({ row }: { row: ParameterRow }) {
  const allowed = row.allowed ?? [];
  return (
    <>
      {row.description ? (
        <p>
          <InlineCode text={row.description} />
        </p>
      ) : null}
      {allowed.length > 0 ? (
        <div className="allowed small">
          <span className="muted">One of: </span>
          <ValueList values={allowed.slice(0, visibleValues)} />
          {allowed.length > visibleValues ? (
            <details className="more-values">
              <summary>{allowed.length - visibleValues} more values</summary>
              <ValueList values={allowed.slice(visibleValues)} />
            </details>
          ) : null}
        </div>
      ) : null}
      {row.constraints.length > 0 ? <p className="muted small">{row.constraints.join(" · ")}</p> : null}
    </>
  );
}

function ValueList({ values }: { values: string[] }) {
  return (
    <>
      {values.map((value, index) => (
        <span key={value}>
          <code>{value}</code>
          {index < values.length - 1 ? ", " : null}
        </span>
      ))}
    </>
  );
}
