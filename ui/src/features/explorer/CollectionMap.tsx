/**
 * The table seen from above: one box per item collection, its area proportional to the
 * collection's size in bytes, laid out as a squarified treemap, largest first or in key order
 * (DynamoDB's order of partition-key values). Hovering or focusing a box tells its item count and
 * size and share of the table; clicking it (or Enter/Space) opens that collection. Every box carries
 * its key: whole where it fits; in a narrower box without the start every key shares (`7741` for
 * `VEH#V-7741`, the legend naming `VEH#V-`), so neighbours stay told apart; cut in the middle only
 * when even that does not fit and the box still holds enough to read (`MIN_CUT_CHARS`), never to
 * an ellipsis and an end; a box narrower than that shows no key, its hover card and label tell it.
 * The boxes are one Tab stop. The arrow keys move by where the boxes are drawn: to the nearest box
 * to the right, to the left, above or below (`neighbour`), not along the list; Home and End go to
 * the first and the last box of the list (the largest and the smallest, or the first and last key).
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from "react";
import { matchesShortcut } from "../../app/shortcuts";
import { attributeText, byteCountLabel, compareKeyValues } from "../../shared/attributeValue";
import { formatCount, formatShare, middleEllipsis } from "../../shared/format";
import type { AttributeValue, CollectionStat } from "../../ipc/bindings.gen";
import { itemCountLabel } from "./collectionRows";
import { neighbour, squarify, type Direction, type Rect } from "./treemap";
import "./CollectionMap.css";

export type MapOrder = "size" | "key";

/** How many collections, items and bytes the table has in all. */
export type MapTotals = { collections: number; items: number; bytes: number };

export type CollectionMapProps = {
  /** The collections to draw from, one entry per partition-key value: all, or the largest. */
  stats: CollectionStat[];
  /**
   * The whole table's figures, when `stats` lists only its largest collections (the statistics
   * list 500): the shares, the count and what is not drawn are of the whole table. Default: the
   * sums of `stats`.
   */
  totals?: MapTotals | null;
  /** The partition key's name, for labels. */
  keyName: string;
  /** Open the collection with this partition-key value. */
  onOpen: (partitionValue: AttributeValue) => void;
  /** Initial order. Default "size" (largest first). */
  defaultOrder?: MapOrder;
  /** At most this many boxes are drawn (the largest); the rest are counted. Default 400. */
  maxBoxes?: number;
  /** The item-collection size limit, on tables with an LSI (10 GB): the card measures against it. */
  sizeLimit?: number | null;
  /** What a click does, for the legend. Default "opens it". */
  openHint?: string;
};

/** Width of a character of the 11 px box label, and the box's padding and border, in pixels. */
const LABEL_CHAR_PX = 7.6;
const BOX_INSET_PX = 12;
/**
 * The fewest characters a key cut in its middle is shown in: two of its start, the ellipsis and
 * four of its end. In less, a cut key ("2…2") tells nothing: the box shows no key.
 */
export const MIN_CUT_CHARS = 7;
/** The map's width before it is measured (and in tests, where nothing is laid out). */
const DEFAULT_AREA_PX = 680;

const ARROW_DIRECTIONS: Record<string, Direction> = { ArrowRight: "right", ArrowLeft: "left", ArrowUp: "up", ArrowDown: "down" };

/** The logical drawing area; boxes are placed in percentages of it. */
const WIDTH = 1000;
const HEIGHT = 560;

export function CollectionMap({
  stats,
  keyName,
  onOpen,
  defaultOrder = "size",
  maxBoxes = 400,
  sizeLimit = null,
  openHint = "opens it",
  totals = null,
}: CollectionMapProps) {
  const [order, setOrder] = useState<MapOrder>(defaultOrder);
  const [focused, setFocused] = useState(0);
  // The box pointed at or focused, by its place among the boxes drawn.
  const [describedAt, setDescribedAt] = useState<number | null>(null);
  const boxRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // Labels are cut to what the box can show, so the map's drawn width is measured.
  const areaRef = useRef<HTMLDivElement>(null);
  const [areaPx, setAreaPx] = useState(DEFAULT_AREA_PX);
  useEffect(() => {
    const el = areaRef.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth > 0) setAreaPx(el.clientWidth);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [stats.length === 0]);
  const labelChars = (width: number) => Math.max(0, Math.floor(((width / WIDTH) * areaPx - BOX_INSET_PX) / LABEL_CHAR_PX));
  // The start every key shares ("VEH#V-"): what a narrow box leaves out first.
  const prefix = useMemo(() => sharedPrefix(stats.map((s) => attributeText(s.partitionValue))), [stats]);
  const labelOf = (stat: CollectionStat, chars: number) => {
    const text = attributeText(stat.partitionValue);
    if (text.length <= chars) return { text, short: false };
    const rest = prefix !== "" && text.startsWith(prefix) ? text.slice(prefix.length) : text;
    if ([...rest].length <= chars) return { text: rest, short: rest !== text };
    if (chars < MIN_CUT_CHARS) return { text: "", short: false };
    return { text: middleEllipsis(rest, chars), short: rest !== text };
  };

  const drawn = useMemo(() => {
    const bySize = [...stats].sort((a, b) => b.sizeBytes - a.sizeBytes || compareKeyValues(a.partitionValue, b.partitionValue));
    const kept = bySize.slice(0, maxBoxes);
    return order === "size" ? kept : [...kept].sort((a, b) => compareKeyValues(a.partitionValue, b.partitionValue));
  }, [stats, order, maxBoxes]);

  const rects = useMemo(() => squarify(drawn.map((s) => s.sizeBytes), { x: 0, y: 0, width: WIDTH, height: HEIGHT }), [drawn]);
  const labels = drawn.map((stat, i) => labelOf(stat, labelChars(rects[i]!.width)));
  const described = describedAt === null ? null : (drawn[describedAt] ?? null);
  const totalBytes = totals?.bytes ?? stats.reduce((sum, s) => sum + s.sizeBytes, 0);
  const totalItems = totals?.items ?? stats.reduce((sum, s) => sum + s.itemCount, 0);
  const totalCollections = Math.max(totals?.collections ?? 0, stats.length);
  // What is not drawn: the smaller collections listed, and those the list left out.
  const hiddenCount = totalCollections - drawn.length;
  const hiddenBytes = Math.max(0, totalBytes - drawn.reduce((sum, s) => sum + s.sizeBytes, 0));

  const move = (event: KeyboardEvent, index: number) => {
    if (!matchesShortcut("move-map-box", event.nativeEvent)) return;
    const direction = ARROW_DIRECTIONS[event.key];
    // An arrow at the map's edge stays on the box.
    const next = direction !== undefined ? (neighbour(rects, index, direction) ?? index) : event.key === "Home" ? 0 : event.key === "End" ? drawn.length - 1 : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const clamped = Math.max(0, Math.min(drawn.length - 1, next));
    setFocused(clamped);
    boxRefs.current[clamped]?.focus();
  };

  const describe = (stat: CollectionStat) => `${keyName} = ${attributeText(stat.partitionValue)}: ${itemCountLabel(stat.itemCount)}, ${byteCountLabel(stat.sizeBytes)}`;
  // The card: the full key, count, size, share of the table, and the LSI limit where there is one.
  const card = (stat: CollectionStat) => {
    const limit =
      sizeLimit !== null && stat.limitedSizeBytes !== null
        ? ` · ${byteCountLabel(stat.limitedSizeBytes)} of the ${byteCountLabel(sizeLimit)} item-collection limit (${formatShare(stat.limitedSizeBytes, sizeLimit)})`
        : "";
    return `${describe(stat)} · ${formatShare(stat.sizeBytes, totalBytes)} of the table${limit}`;
  };

  return (
    <section className="collection-map" aria-label={`Collections by ${keyName}`}>
      <div className="map-toolbar">
        <span className="muted">
          {formatCount(totalCollections)} {totalCollections === 1 ? "collection" : "collections"} · {itemCountLabel(totalItems)} ·{" "}
          {byteCountLabel(totalBytes)}
        </span>
        <div role="radiogroup" aria-label="Order of the boxes" className="map-order">
          <label>
            <input type="radio" name="map-order" checked={order === "size"} onChange={() => setOrder("size")} /> Largest first
          </label>
          <label>
            <input type="radio" name="map-order" checked={order === "key"} onChange={() => setOrder("key")} /> Key order
          </label>
        </div>
      </div>
      {stats.length === 0 ? (
        <p className="muted">This table has no items yet.</p>
      ) : (
        <div ref={areaRef} className="map-area" role="list" aria-label={`Collections, ${order === "size" ? "largest first" : "in key order"}`}>
          {drawn.map((stat, i) => {
            const r = rects[i]!;
            const label = describe(stat);
            return (
              <div role="listitem" key={`${order}-${i}`} className="map-cell">
                <button
                  type="button"
                  ref={(el) => {
                    boxRefs.current[i] = el;
                  }}
                  className="map-box"
                  style={{
                    left: `${(r.x / WIDTH) * 100}%`,
                    top: `${(r.y / HEIGHT) * 100}%`,
                    // A 3 px gutter keeps neighbouring dashed boxes apart.
                    width: `calc(${(r.width / WIDTH) * 100}% - 3px)`,
                    height: `calc(${(r.height / HEIGHT) * 100}% - 3px)`,
                  }}
                  tabIndex={i === Math.min(focused, drawn.length - 1) ? 0 : -1}
                  aria-label={label}
                  title={label}
                  onClick={() => onOpen(stat.partitionValue)}
                  onKeyDown={(event) => move(event, i)}
                  onFocus={() => {
                    setFocused(i);
                    setDescribedAt(i);
                  }}
                  onMouseEnter={() => setDescribedAt(i)}
                  onMouseLeave={() => setDescribedAt(null)}
                  onBlur={() => setDescribedAt(null)}
                >
                  {labels[i]!.text !== "" && <span className="map-box-key">{labels[i]!.text}</span>}
                  {r.width > WIDTH * 0.12 && r.height > HEIGHT * 0.1 && (
                    <span className="map-box-size" aria-hidden="true">
                      {itemCountLabel(stat.itemCount)} · {byteCountLabel(stat.sizeBytes)}
                    </span>
                  )}
                </button>
              </div>
            );
          })}
          {described !== null && describedAt !== null && (
            <MapCard
              stat={described}
              rect={rects[describedAt]!}
              keyName={keyName}
              share={formatShare(described.sizeBytes, totalBytes)}
              sizeLimit={sizeLimit}
            />
          )}
        </div>
      )}
      <p className="map-details" aria-live="polite" data-testid="map-details">
        {described === null ? "Point at or focus a box to see its collection; click it to open it." : card(described)}
      </p>
      <p className="map-legend muted" data-testid="map-legend">
        <span className="map-legend-box" aria-hidden="true" />
        {/* One run of text, so it wraps as a sentence beside the sample box. */}
        <span className="map-legend-text" data-testid="map-legend-text">
          one item collection (one {keyName} value) · area: its size in bytes · a click {openHint}
          {labels.some((l) => l.short) && (
            <>
              {" "}
              · a narrow box leaves out <code>{prefix}</code>, the start every key shares
            </>
          )}
          {labels.some((l) => l.text === "") && <> · a box too narrow for its key tells it when pointed at or focused</>}
        </span>
      </p>
      {hiddenCount > 0 && (
        <p className="muted" data-testid="map-hidden">
          {formatCount(hiddenCount)} smaller {hiddenCount === 1 ? "collection is" : "collections are"} not drawn (
          {byteCountLabel(hiddenBytes)} in all).
        </p>
      )}
    </section>
  );
}

/**
 * The card beside the box pointed at or focused: its whole key, count, size and share of the
 * table, and on a table with an LSI a gauge of its collection against the 10 GB limit. (The line
 * under the map says the same to a screen reader; the card is for the eye, next to the box.)
 */
function MapCard({ stat, rect, keyName, share, sizeLimit }: { stat: CollectionStat; rect: Rect; keyName: string; share: string; sizeLimit: number | null }) {
  // Below the box when it ends in the map's upper part, above it when it starts in the lower
  // part, else (a box as tall as the map) inside it under its label; from its left edge when it
  // is in the left part, else from its right edge: the card stays inside the map.
  const below = rect.y + rect.height < HEIGHT * 0.6;
  const above = !below && rect.y > HEIGHT * 0.4;
  const fromLeft = rect.x < WIDTH * 0.55;
  const vertical: CSSProperties = below
    ? { top: `calc(${((rect.y + rect.height) / HEIGHT) * 100}% + 4px)` }
    : above
      ? { bottom: `calc(${((HEIGHT - rect.y) / HEIGHT) * 100}% + 4px)` }
      : { top: `calc(${(rect.y / HEIGHT) * 100}% + 2.6rem)` };
  const inside = !below && !above ? 8 : 0;
  const place: CSSProperties = {
    ...vertical,
    ...(fromLeft
      ? { left: `calc(${(rect.x / WIDTH) * 100}% + ${inside}px)` }
      : { right: `calc(${((WIDTH - rect.x - rect.width) / WIDTH) * 100}% + ${inside}px)` }),
  };
  const limited = sizeLimit !== null && stat.limitedSizeBytes !== null ? stat.limitedSizeBytes : null;
  return (
    <div className="map-card" style={place} aria-hidden="true" data-testid="map-card">
      <strong className="map-card-key">
        {keyName} = {attributeText(stat.partitionValue)}
      </strong>
      <span>
        {itemCountLabel(stat.itemCount)} · {byteCountLabel(stat.sizeBytes)} · {share} of the table
      </span>
      {limited !== null && sizeLimit !== null && (
        <span className="map-card-gauge">
          <meter min={0} max={sizeLimit} low={sizeLimit * 0.5} high={sizeLimit * 0.8} optimum={0} value={limited} />
          {byteCountLabel(limited)} of the {byteCountLabel(sizeLimit)} item-collection limit ({formatShare(limited, sizeLimit)})
        </span>
      )}
    </div>
  );
}

/**
 * The prefix every key starts with, when there are several keys and each has more after it
 * (at least 2 characters, else none).
 */
export function sharedPrefix(keys: string[]): string {
  if (keys.length < 2) return "";
  let prefix = keys[0]!;
  for (const key of keys) {
    let n = 0;
    while (n < prefix.length && n < key.length && prefix[n] === key[n]) n++;
    prefix = prefix.slice(0, n);
  }
  // Keep a whole character's worth after the prefix for every key.
  while (prefix.length > 0 && keys.some((k) => k.length <= prefix.length)) prefix = prefix.slice(0, -1);
  return prefix.length >= 2 ? prefix : "";
}
