/**
 * The inside of the box a Query read: the items it returned, in the order it returned them, and
 * after each page the cut DynamoDB made there (rule B.4, docs/dynamodb-rules.md): the Limit of
 * items evaluated, the 1 MB a page reads at most, or the end of the key range; the
 * LastEvaluatedKey the next page starts after; what the page cost; and the items the filter
 * dropped — read (and paid for) but not returned, since a filter runs after the read.
 */
import { useMemo, type CSSProperties } from "react";
import type { KeySchema, QueryPage } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatUnits } from "../../shared/format";
import { TypedValue } from "../../shared/TypedValue";
import { boxColumns } from "./boxColumns";

const STOP_TEXT = {
  limit: "Limit reached",
  size: "1 MB read",
  end: "end of the key range",
} as const;

export function ReadRows({ keys, pages, loading }: { keys: KeySchema; pages: QueryPage[]; loading: boolean }) {
  const columns = useMemo(() => boxColumns(keys, pages.flatMap((p) => p.items)), [keys, pages]);
  const sortKey = keys.sortKey?.name ?? null;
  const span = columns.length + (sortKey === null ? 0 : 1);
  const style = { "--run-columns": columns.length } as CSSProperties;
  if (pages.length === 0) {
    return <p className="run-box-loading muted">{loading ? "The query is reading this collection…" : "Nothing read yet."}</p>;
  }
  return (
    <div className="run-box-table-wrap">
      <table className="run-box-table" style={style} data-testid="read-rows">
        <thead>
          <tr>
            {sortKey !== null && (
              <th scope="col" className="run-box-sk">
                {sortKey}
              </th>
            )}
            {columns.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        {pages.map((page, n) => {
          const dropped = page.scannedCount - page.count;
          const units = page.consumedCapacity?.total ?? null;
          const last = page.lastEvaluatedKey;
          return (
            <tbody key={n}>
              {page.items.map((item, i) => (
                <tr key={i} data-testid="box-row">
                  {sortKey !== null && (
                    <th scope="row" className="run-box-sk">
                      {item[sortKey] === undefined ? "—" : <TypedValue value={item[sortKey]!} />}
                    </th>
                  )}
                  {columns.map((name) => (
                    <td key={name}>{item[name] === undefined ? <span className="run-absent">—</span> : <TypedValue value={item[name]!} />}</td>
                  ))}
                </tr>
              ))}
              {dropped > 0 && (
                <tr className="run-box-dropped" data-testid="box-dropped">
                  <td colSpan={span}>
                    {formatCount(dropped)} {dropped === 1 ? "item" : "items"} read but not returned: the filter dropped{" "}
                    {dropped === 1 ? "it" : "them"} after the read
                    {units !== null && ` — this page's ${formatUnits(units)} RCU paid for all ${formatCount(page.scannedCount)} read`}.
                  </td>
                </tr>
              )}
              <tr className={`run-box-cut run-box-cut-${page.stop}`} data-testid="box-cut">
                <td colSpan={span}>
                  <span className="run-box-cut-line" aria-hidden="true" />
                  Page {n + 1} · {formatCount(page.count)} returned of {formatCount(page.scannedCount)} evaluated · {STOP_TEXT[page.stop]}
                  {units !== null && ` · ${formatUnits(units)} RCU`}
                  {last !== null && (
                    <>
                      {" "}
                      · LastEvaluatedKey{" "}
                      <code>
                        {Object.entries(last)
                          .map(([k, v]) => `${k} = ${attributeText(v)}`)
                          .join(", ")}
                      </code>
                    </>
                  )}
                </td>
              </tr>
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
