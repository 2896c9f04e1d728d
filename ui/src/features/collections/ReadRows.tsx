/**
 * The inside of the box a Query read: the items it returned, in the order it returned them, and
 * after each page the cut DynamoDB made there (rule B.4, docs/dynamodb-rules.md): the Limit of
 * items evaluated, the 1 MB a page reads at most, or the end of the key range; the
 * LastEvaluatedKey the next page starts after; what the page cost; and the items the filter
 * dropped — read (and paid for) but not returned, since a filter runs after the read. Once they
 * are read back (`useDroppedItems`: at once on the embedded engine, on request on AWS) they are
 * drawn in their places among the returned items, struck through.
 */
import { useMemo, type CSSProperties } from "react";
import type { KeySchema, QueryPage } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatUnits } from "../../shared/format";
import { TypedValue } from "../../shared/TypedValue";
import { droppedCount, type DroppedPage, type ReadRow } from "../query/useDroppedItems";
import { boxColumns } from "./boxColumns";

const STOP_TEXT = {
  limit: "Limit reached",
  size: "1 MB read",
  end: "end of the key range",
} as const;

export function ReadRows({
  keys,
  pages,
  loading,
  dropped,
  onShowDropped,
}: {
  keys: KeySchema;
  pages: QueryPage[];
  loading: boolean;
  /** The dropped items read back so far, by page. */
  dropped: ReadonlyMap<number, DroppedPage>;
  /** Reads a page's dropped items back; null when that happens without asking. */
  onShowDropped: ((page: number) => void) | null;
}) {
  const columns = useMemo(() => boxColumns(keys, pages.flatMap((p, n) => pageRows(p, dropped.get(n)).map((r) => r.item))), [keys, pages, dropped]);
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
          const droppedHere = droppedCount(page);
          const back = dropped.get(n);
          const units = page.consumedCapacity?.total ?? null;
          const last = page.lastEvaluatedKey;
          return (
            <tbody key={n}>
              {pageRows(page, back).map(({ item, dropped: gone }, i) => (
                <tr
                  key={i}
                  className={gone ? "run-box-row-dropped" : undefined}
                  data-testid={gone ? "box-row-dropped" : "box-row"}
                  title={gone ? "Read and paid for, then dropped by the filter: not in the result" : undefined}
                >
                  {sortKey !== null && (
                    <th scope="row" className="run-box-sk">
                      {gone && <span className="sr-only">Dropped by the filter: </span>}
                      {item[sortKey] === undefined ? "—" : <TypedValue value={item[sortKey]!} />}
                    </th>
                  )}
                  {columns.map((name) => (
                    <td key={name}>{item[name] === undefined ? <span className="run-absent">—</span> : <TypedValue value={item[name]!} />}</td>
                  ))}
                </tr>
              ))}
              {droppedHere > 0 && (
                <tr className="run-box-dropped" data-testid="box-dropped">
                  <td colSpan={span}>
                    {formatCount(droppedHere)} {droppedHere === 1 ? "item" : "items"} read but not returned: the filter dropped{" "}
                    {droppedHere === 1 ? "it" : "them"} after the read
                    {units !== null && ` — this page's ${formatUnits(units)} RCU paid for all ${formatCount(page.scannedCount)} read`}.
                    <DroppedState
                      state={back}
                      count={droppedHere}
                      units={units}
                      onShow={onShowDropped === null ? null : () => onShowDropped(n)}
                    />
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

/** A page's rows: the returned items, with the dropped ones among them once they are read back. */
function pageRows(page: QueryPage, back: DroppedPage | undefined): ReadRow[] {
  return back?.status === "ok" ? back.rows : page.items.map((item) => ({ item, dropped: false }));
}

/** Where a page's dropped items stand: drawn, being read back, not readable, or offered. */
function DroppedState({
  state,
  count,
  units,
  onShow,
}: {
  state: DroppedPage | undefined;
  count: number;
  units: number | null;
  onShow: (() => void) | null;
}) {
  const them = count === 1 ? "It is" : "They are";
  if (state?.status === "ok") return <span> {them} drawn struck through among the returned items.</span>;
  if (state?.status === "loading") return <span> Reading {count === 1 ? "it" : "them"} back…</span>;
  if (state?.status === "error") return <span className="run-box-error-text"> {state.message}</span>;
  if (onShow === null) return null;
  return (
    <>
      {" "}
      <button type="button" className="run-box-open" onClick={onShow} data-testid="box-show-dropped">
        Show {count === 1 ? "it" : "them"}
        {units !== null && ` (reads the page again without the filter: ${formatUnits(units)} RCU)`}
      </button>
    </>
  );
}
