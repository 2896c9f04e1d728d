import type { AttributeValueJson } from "../../ipc/bindings.gen";
import "./GeneratedView.css";

/** An expression as it is sent, with its ExpressionAttributeNames and ExpressionAttributeValues beside it. */
export function GeneratedView({
  parameter,
  expression,
  names,
  values,
}: {
  parameter: string;
  expression: string;
  names: { [key in string]: string } | null;
  values: { [key in string]: AttributeValueJson } | null;
}) {
  const nameEntries = Object.entries(names ?? {});
  const valueEntries = Object.entries(values ?? {});
  return (
    <section className="generated-view" aria-label={`Generated ${parameter}`}>
      <div>
        <h4>{parameter}</h4>
        <code className="generated-expression" data-testid="generated-expression">
          {expression}
        </code>
      </div>
      <div>
        <h4>ExpressionAttributeNames</h4>
        {nameEntries.length === 0 ? (
          <p className="builder-hint">none</p>
        ) : (
          <dl className="generated-map" data-testid="generated-names">
            {nameEntries.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <div>
        <h4>ExpressionAttributeValues</h4>
        {valueEntries.length === 0 ? (
          <p className="builder-hint">none</p>
        ) : (
          <dl className="generated-map" data-testid="generated-values">
            {valueEntries.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{JSON.stringify(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}
