/**
 * One DynamoDB value drawn by its type: numbers exactly as stored (never through a JS number),
 * strings, binary as base64 with its size, booleans and null, sets as chips with their type, and
 * maps and lists as disclosures that open and close with the mouse or the keyboard (Enter, Space,
 * ArrowRight to open, ArrowLeft to close). A key the disclosure acts on is its own: it goes no
 * further (a grid's row or box around it would act on it too, and take the focus away).
 *
 * An opened value is drawn under its toggle, so it makes its row taller: a list of rows of one
 * height that it sits in (virtualised) provides `ValueOpenedContext`, told of every open and close
 * after it is drawn, to measure that row again.
 */
import { matchesShortcut } from "../app/shortcuts";
import { createContext, useContext, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { AttributeValue } from "../ipc/bindings.gen";
import { base64ByteLength, byteCountLabel, typeName, typeOf } from "./attributeValue";
import "./TypedValue.css";

/**
 * Told, after a map or list value inside was opened or closed and drawn so, of the element of that
 * value (to find and measure the row holding it). Null: nobody asks.
 */
export const ValueOpenedContext = createContext<((value: HTMLElement) => void) | null>(null);

export type TypedValueProps = {
  value: AttributeValue;
  /** Open maps and lists on first render (nested levels start closed). Default false. */
  defaultExpanded?: boolean;
  /** Long base64 is cut to this many characters in the view (the full text is in the tooltip). */
  binaryPreview?: number;
};

/**
 * How a scalar drawn as plain text looks: its classes and its text (a non-empty string, a number,
 * a boolean, null); `null` for every other value. A grid cell puts these on itself rather than
 * wrapping a `TypedValue`: a scroll through a big table's boxes makes and removes thousands of
 * cells, and one element a cell instead of two halves what the web view allocates for them
 * (`bench/app/views.md`, session 24).
 */
export function scalarLook(value: AttributeValue): { className: string; text: string } | null {
  if ("S" in value) return value.S === "" ? null : { className: "tv tv-s", text: value.S };
  if ("N" in value) return { className: "tv tv-n", text: value.N };
  if ("BOOL" in value) return { className: "tv tv-bool", text: value.BOOL ? "true" : "false" };
  if ("NULL" in value) return { className: "tv tv-null", text: "null" };
  return null;
}

export function TypedValue({ value, defaultExpanded = false, binaryPreview = 24 }: TypedValueProps) {
  const look = scalarLook(value);
  if (look !== null) return <span className={look.className}>{look.text}</span>;
  if ("S" in value) {
    return (
      <span className="tv tv-s tv-empty" title="empty string">
        ""<span className="sr-only"> (empty string)</span>
      </span>
    );
  }
  if ("B" in value) return <Binary base64={value.B} preview={binaryPreview} />;
  if ("SS" in value) return <SetChips type="SS" values={value.SS} />;
  if ("NS" in value) return <SetChips type="NS" values={value.NS} />;
  if ("BS" in value) return <SetChips type="BS" values={value.BS} />;
  // (Drawn above by their look; named here so that only maps and lists are left.)
  if ("N" in value || "BOOL" in value || "NULL" in value) return null;
  return <Nested value={value} defaultExpanded={defaultExpanded} binaryPreview={binaryPreview} />;
}

function Binary({ base64, preview }: { base64: string; preview: number }) {
  const bytes = base64ByteLength(base64);
  const shown = base64.length > preview ? `${base64.slice(0, preview)}…` : base64;
  return (
    <span className="tv tv-b" title={base64}>
      <code>{shown}</code>
      <span className="tv-badge" aria-label={`binary, ${byteCountLabel(bytes)}`}>
        {byteCountLabel(bytes)}
      </span>
    </span>
  );
}

function SetChips({ type, values }: { type: "SS" | "NS" | "BS"; values: string[] }) {
  const label = `${typeName(type)}, ${values.length} ${values.length === 1 ? "value" : "values"}`;
  return (
    <span className="tv tv-set">
      <span className="tv-badge" title={typeName(type)}>
        {type}
      </span>
      <span role="list" aria-label={label} className="tv-chips">
        {values.map((v, i) => (
          <span role="listitem" key={i} className={`tv-chip tv-chip-${type}`}>
            {type === "BS" ? `${v.length > 16 ? `${v.slice(0, 16)}…` : v} (${byteCountLabel(base64ByteLength(v))})` : v}
          </span>
        ))}
      </span>
    </span>
  );
}

function Nested({
  value,
  defaultExpanded,
  binaryPreview,
}: {
  value: { M: { [key in string]: AttributeValue } } | { L: AttributeValue[] };
  defaultExpanded: boolean;
  binaryPreview: number;
}) {
  const [open, setOpen] = useState(defaultExpanded);
  const opened = useContext(ValueOpenedContext);
  const self = useRef<HTMLSpanElement>(null);
  const drawn = useRef(open);
  useEffect(() => {
    if (drawn.current === open) return;
    drawn.current = open;
    if (self.current !== null) opened?.(self.current);
  }, [open, opened]);
  const type = typeOf(value);
  const entries: [string, AttributeValue][] = "M" in value ? Object.entries(value.M) : value.L.map((v, i) => [String(i), v]);
  const summary =
    "M" in value
      ? `${entries.length} ${entries.length === 1 ? "attribute" : "attributes"}`
      : `${entries.length} ${entries.length === 1 ? "element" : "elements"}`;
  const onKeyDown = (event: KeyboardEvent) => {
    // Enter and Space press the button (its click toggles it): theirs too, not the row's (whose
    // Enter would open the item instead).
    if ((event.key === "Enter" || event.key === " ") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.stopPropagation();
      return;
    }
    if (!matchesShortcut("toggle-value", event.nativeEvent)) return;
    if (event.key === "ArrowRight" && !open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(true);
    } else if (event.key === "ArrowLeft" && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  return (
    <span ref={self} className={`tv tv-nested tv-${type}`}>
      <button
        type="button"
        className="tv-toggle"
        aria-expanded={open}
        aria-label={`${typeName(type)}, ${summary}`}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(!open);
        }}
        onKeyDown={onKeyDown}
      >
        <span className="tv-caret" aria-hidden="true">
          {open ? "▾" : "▸"}
        </span>
        <span className="tv-badge">{type}</span> {summary}
      </button>
      {open && (
        <span role="group" aria-label={`${typeName(type)} contents`} className="tv-entries">
          {entries.map(([key, child]) => (
            <span className="tv-entry" key={key}>
              <span className={"M" in value ? "tv-key" : "tv-index"}>{key}</span>
              <TypedValue value={child} binaryPreview={binaryPreview} />
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
