/**
 * One box of the Collections view's run: a collection headed by its full key value, item count,
 * size and the RCU to read it whole, its rows inside (the first few, the whole collection as it
 * scrolls by, or the pages the query bar's Query read), and the keys that move between boxes.
 * Only the run's Tab stop (`tabStop`) is in the Tab order, with its buttons after it.
 * A box a filtered Scan walked says which of its rows (its own Query's, read without the filter)
 * the Scan returned, and draws the ones its filter dropped struck through (`activeRead`).
 * Memoised: a box that arrives re-renders only itself.
 */
import { memo, type KeyboardEvent } from "react";
import type { AttributeValue, KeySchema } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { attributeText, byteCountLabel } from "../../shared/attributeValue";
import { formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { wholeCollectionReadCost } from "../../shared/readCost";
import type { Item } from "../../shared/attributeValue";
import type { BoxState, CollectionEntry } from "./useCollections";
import { sameBoxRead, SCAN_DROPPED_TITLE, scanReturned, type BoxRead, type ScanReturns } from "./activeRead";
import { ReadRows } from "./ReadRows";
import { WholeRows } from "./WholeRows";
import { GridCells, GridHead, useGrid, type Marks } from "./RowGrid";
import { unreadBody } from "./boxSize";

export type BoxProps = {
  entry: CollectionEntry;
  /** Every item drawn, read as it comes into sight (WholeRows), not the first `rowsPerBox`. */
  whole: boolean;
  /** Show the box whole, or its first rows again; absent where the box is always whole. */
  onShowWhole: ((key: string, on: boolean) => void) | undefined;
  scrollElement: HTMLElement | null;
  /** Where the box's slot starts in the run (px), for a box shown whole; 0 otherwise. */
  boxStart: number;
  onReadOn: (key: string, upTo: number) => void;
  index: number;
  total: number;
  keys: KeySchema;
  marks: Marks;
  state: BoxState | undefined;
  marked: boolean;
  onOpen: (value: AttributeValue) => void;
  onRetry: (key: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, index: number, entry: CollectionEntry) => void;
  rowsPerBox: number;
  /** How the active read stands with this box (null: no active read). */
  read?: BoxRead;
  registerBox: (index: number, el: HTMLElement | null) => void;
  /**
   * The run's one Tab stop (a roving tabindex): this box, and its buttons after it, are in the
   * Tab order; every other box is reached with the arrow keys.
   */
  tabStop: boolean;
  /** The focus came to this box or into it: it becomes the run's Tab stop. */
  onFocusBox: (index: number) => void;
  /** Marked for a moment (brought into view from the map). */
  flash?: boolean;
};

/** One collection; memoised so a box that arrives re-renders only itself. */
export const Box = memo(function Box({
  entry,
  whole,
  onShowWhole,
  scrollElement,
  boxStart,
  onReadOn,
  index,
  total,
  keys,
  marks,
  state,
  marked,
  onOpen,
  onRetry,
  onKeyDown,
  rowsPerBox,
  read = null,
  registerBox,
  tabStop,
  onFocusBox,
  flash = false,
}: BoxProps) {
  // The box's buttons are in the Tab order only while it is the run's Tab stop.
  const buttonTab = tabStop ? 0 : -1;
  const pkName = keys.partitionKey.name;
  const keyText = attributeText(entry.partitionValue);
  const cost = wholeCollectionReadCost(entry.sizeBytes);
  const titleId = `box-${index}-title`;
  return (
    <article
      ref={(el) => registerBox(index, el)}
      className={`run-box${whole ? " run-box-whole" : ""}${marked ? " run-box-marked" : ""}${flash ? " run-box-flash" : ""}${keys.sortKey === null ? " run-box-single" : ""}${read === null ? "" : ` run-box-${read.role}`}`}
      data-read={read?.role}
      aria-labelledby={titleId}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-busy={state === undefined || state.status === "loading"}
      tabIndex={tabStop ? 0 : -1}
      data-testid="collection-run-box"
      data-key={keyText}
      onKeyDown={(event) => onKeyDown(event, index, entry)}
      onFocus={() => onFocusBox(index)}
    >
      <header className="run-box-header">
        <h3 id={titleId} className="run-box-title">
          <span className="run-box-pk-name">{pkName} =</span> <span className="run-box-pk-value">{keyText}</span>
        </h3>
        <span className="run-box-figures" data-testid="box-figures">
          {formatCount(entry.itemCount)} {entry.itemCount === 1 ? "item" : "items"} · {byteCountLabel(entry.sizeBytes)}
        </span>
        <span
          className="run-box-cost"
          data-testid="box-cost"
          title="What a Query reading every item of this collection costs: its size rounded up to 4 KB blocks, 1 RCU a block strongly consistent, half eventually (a page is at most 1 MB)."
        >
          whole: {formatUnits(cost.eventual)} RCU eventual · {formatUnits(cost.strong)} strong
        </span>
        {state?.status === "ok" && state.keptFromScan !== undefined && (
          <span
            className="run-box-kept"
            data-testid="box-kept"
            title={`The statistics scan read these rows on ${new Date(state.keptFromScan * 1000).toLocaleString()} and kept each collection's first ones: the box shows them without a Query of its own. Rows further on are read with a Query. A write from DynoTable to this table forgets them; writes from elsewhere since the scan are not in them.`}
          >
            rows from the statistics scan · no Query
          </span>
        )}
        {whole && onShowWhole !== undefined && (
          <button type="button" className="run-box-open" tabIndex={buttonTab} onClick={() => onShowWhole(entry.key, false)} data-testid="box-show-first">
            Show the first {formatCount(rowsPerBox)}
          </button>
        )}
        <button
          type="button"
          className="run-box-open"
          tabIndex={buttonTab}
          aria-label={`Open ${pkName} = ${keyText} in Items`}
          onClick={() => onOpen(entry.partitionValue)}
        >
          Open in Items
        </button>
      </header>
      {read?.role === "read" && (
        <p className="run-box-read-note" data-testid="box-read-note">
          The query reads this collection, and only this one.
        </p>
      )}
      {read?.role === "walked" && (
        <p className="run-box-read-note" data-testid="box-walked-note">
          {read.items === null
            ? "The scan read this collection."
            : read.items === 0
              ? "The scan read this collection; its filter returned none of it."
              : `The scan returned ${formatCountOf(read.items, "item")} from here.`}
        </p>
      )}
      {read?.role === "walked" && read.filtered && (
        <WalkedRows returns={read.returns} completed={read.completed} drawn={state?.status === "ok" ? (whole ? state.items : state.items.slice(0, rowsPerBox)) : null} />
      )}
      {read?.role === "read" ? (
        <ReadRows
          keys={keys}
          pages={read.pages}
          loading={read.loading}
          dropped={read.dropped}
          onShowDropped={read.showDropped}
          scrollElement={scrollElement}
          boxStart={boxStart}
        />
      ) : whole && state?.status === "ok" ? (
        <WholeRows
          entry={entry}
          keys={keys}
          marks={marks}
          state={state}
          scrollElement={scrollElement}
          boxStart={boxStart}
          onReadOn={onReadOn}
          returns={read?.role === "walked" ? read.returns : null}
        />
      ) : (
        <BoxBody
          entry={entry}
          keys={keys}
          marks={marks}
          state={state}
          onOpen={onOpen}
          onRetry={onRetry}
          rowsPerBox={rowsPerBox}
          onShowWhole={onShowWhole}
          buttonTab={buttonTab}
          returns={read?.role === "walked" ? read.returns : null}
        />
      )}
    </article>
  );
}, sameBoxProps);

/** Props equal but for a box read built again with the same content (the active read is
 * computed per box on every render of the run). */
function sameBoxProps(a: BoxProps, b: BoxProps): boolean {
  for (const name of Object.keys(a) as (keyof BoxProps)[]) {
    if (name === "read") continue;
    if (a[name] !== b[name]) return false;
  }
  return sameBoxRead(a.read ?? null, b.read ?? null);
}

function BoxBody({
  entry,
  keys,
  marks,
  state,
  onOpen,
  onRetry,
  rowsPerBox,
  onShowWhole,
  buttonTab,
  returns,
}: {
  entry: CollectionEntry;
  keys: KeySchema;
  marks: Marks;
  state: BoxState | undefined;
  onOpen: (value: AttributeValue) => void;
  onRetry: (key: string) => void;
  rowsPerBox: number;
  onShowWhole: ((key: string, on: boolean) => void) | undefined;
  buttonTab: number;
  returns: ScanReturns | null;
}) {
  if (state === undefined || state.status === "loading") {
    return (
      <p className="run-box-loading muted" data-testid="box-loading" style={{ minHeight: unreadBody(entry, rowsPerBox) }}>
        Reading the first {formatCount(Math.min(entry.itemCount, rowsPerBox))} {entry.itemCount === 1 ? "item" : "items"}…
      </p>
    );
  }
  if (state.status === "error") {
    return (
      <p className="run-box-error" role="alert">
        This collection could not be read: {state.error.message} <code>{state.error.exception ?? errorTitle(state.error)}</code>{" "}
        <button type="button" tabIndex={buttonTab} onClick={() => onRetry(entry.key)}>
          Try again
        </button>
      </p>
    );
  }
  // A box folded back after it was shown whole still holds every item it read: it draws its first rows.
  const drawn = state.items.length > rowsPerBox ? state.items.slice(0, rowsPerBox) : state.items;
  return (
    <BoxRows
      entry={entry}
      keys={keys}
      marks={marks}
      items={drawn}
      more={state.more || drawn.length < state.items.length}
      onOpen={onOpen}
      onShowWhole={onShowWhole}
      buttonTab={buttonTab}
      returns={returns}
    />
  );
}


function BoxRows({
  entry,
  keys,
  marks,
  items,
  more,
  onOpen,
  onShowWhole,
  buttonTab,
  returns,
}: {
  entry: CollectionEntry;
  keys: KeySchema;
  marks: Marks;
  items: Item[];
  more: boolean;
  onOpen: (value: AttributeValue) => void;
  onShowWhole: ((key: string, on: boolean) => void) | undefined;
  buttonTab: number;
  /** What a filtered Scan returned: the rows it did not are drawn as dropped by its filter. */
  returns: ScanReturns | null;
}) {
  const grid = useGrid(keys, items);
  const sortKey = keys.sortKey?.name ?? null;
  // The statistics count every item; the Query drew the first ones.
  const rest = Math.max(0, entry.itemCount - items.length);
  return (
    <>
      <div className="run-box-grid" role="table" aria-rowcount={entry.itemCount} style={grid.style}>
        <GridHead keys={keys} grid={grid} marks={marks} />
        {items.map((item, i) => {
          const dropped = returns !== null && !scanReturned(returns, item);
          return (
            <div
              key={i}
              className={`grid-row${dropped ? " run-box-row-dropped" : ""}`}
              role="row"
              data-testid="box-row"
              data-row={i}
              data-dropped={dropped ? "true" : undefined}
              title={dropped ? SCAN_DROPPED_TITLE : undefined}
              tabIndex={-1}
            >
              <GridCells keys={keys} grid={grid} item={item} rowHeaderPrefix={dropped && sortKey !== null ? "Dropped by the filter: " : null} />
            </div>
          );
        })}
      </div>
      {(rest > 0 || more) && (
        <p className="run-box-more" data-testid="box-more">
          … {rest > 0 ? `${formatCount(rest)} more ${rest === 1 ? "item" : "items"}` : "more items"} in this collection, after{" "}
          {sortKey === null ? "these" : "the last one drawn"}.{" "}
          {onShowWhole !== undefined && (
            <>
              <button type="button" className="link" tabIndex={buttonTab} onClick={() => onShowWhole(entry.key, true)} data-testid="box-show-whole">
                Show them here
              </button>{" "}
              or{" "}
            </>
          )}
          <button type="button" className="link" tabIndex={buttonTab} onClick={() => onOpen(entry.partitionValue)}>
            {onShowWhole !== undefined ? "read" : "Read"} them all in Items
          </button>
        </p>
      )}
    </>
  );
}

/**
 * Where a walked box's rows come from, for a Scan with a filter: its own Query, read without the
 * filter, so which of them the Scan returned is said (and the dropped ones struck through) once
 * it has read the whole table.
 */
function WalkedRows({ returns, completed, drawn }: { returns: ScanReturns | null; completed: boolean; drawn: Item[] | null }) {
  const origin = "The rows here are this box's own, read without the scan's filter";
  let text: string;
  if (returns === null) {
    text = completed
      ? `${origin}: which of them the scan returned cannot be told (it kept too few of its items, or their keys).`
      : `${origin}: which of them the scan returned and which its filter dropped is marked once a scan has read the whole table.`;
  } else if (drawn === null || drawn.length === 0) {
    text = `${origin}.`;
  } else {
    const dropped = drawn.filter((item) => !scanReturned(returns, item)).length;
    const returned = drawn.length - dropped;
    const these = drawn.length === 1 ? "this row" : `these ${formatCount(drawn.length)} rows`;
    text =
      dropped === 0
        ? `${origin}: the scan returned every one of ${these}.`
        : returned === 0
          ? `${origin}: the scan's filter dropped ${drawn.length === 1 ? "it" : `all ${formatCount(drawn.length)}`}, struck through — read and paid for, not returned.`
          : `${origin}: of ${these}, the scan returned ${formatCount(returned)}; its filter dropped ${formatCount(dropped)}, struck through — read and paid for, not returned.`;
  }
  return (
    <p className="run-box-read-note" data-testid="box-walked-rows">
      {text}
    </p>
  );
}
