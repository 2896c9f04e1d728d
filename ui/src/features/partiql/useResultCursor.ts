/**
 * The keyboard of a statement's results, as a grid or as collections: the list is one Tab stop
 * (its scroll element takes the focus, with the focus ring of every control) and ↑/↓, Page Up/Page
 * Down, Home/End move a selected row (the `move-selection` shortcut), brought into sight under the
 * sticky header. The selected row is the list's active descendant while it is drawn, so a screen
 * reader reads it; a new result clears the selection.
 *
 * The rows are counted apart from the lines the virtualiser draws: in the collections a box's head
 * is a line and no row. `lineOf` says which line a row is, `revealOf` which line to bring into
 * sight for it (its box's head too, moving up onto a box's first row).
 */
import { useEffect, useState, type KeyboardEvent, type RefObject } from "react";
import type { Virtualizer } from "@tanstack/react-virtual";
import { matchesShortcut } from "../../app/shortcuts";

export type ResultCursor = {
  /** The selected row, by its place among the rows. */
  selected: number | null;
  /** The selected row's line. */
  selectedLine: number | null;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** The id of the selected row's element, while it is drawn (for `aria-activedescendant`). */
  activeDescendant: string | undefined;
};

export function useResultCursor<S extends Element>({
  rows,
  lineOf = (row) => row,
  revealOf = (line) => line,
  virtualizer,
  scroller,
  rowHeight,
  lineId,
  result,
}: {
  /** How many rows there are. */
  rows: number;
  lineOf?: (row: number) => number;
  /** The line to bring into sight for `line`, reached moving up (`upward`) or down. */
  revealOf?: (line: number, upward: boolean) => number;
  virtualizer: Virtualizer<S, Element>;
  scroller: RefObject<HTMLElement | null>;
  /** A row's height in px: Page Up and Page Down move by the rows in sight. */
  rowHeight: number;
  /** The id of a line's element. */
  lineId: (line: number) => string;
  /** The result shown: a new one clears the selection. */
  result: unknown;
}): ResultCursor {
  const [selected, setSelected] = useState<number | null>(null);
  useEffect(() => setSelected(null), [result]);
  const current = selected !== null && selected < rows ? selected : null;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (rows === 0 || !matchesShortcut("move-selection", event.nativeEvent)) return;
    // The rows in sight, less one kept for context (the header is one row high).
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / rowHeight) - 2);
    const at = current ?? -1;
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: current === null ? 0 : at - 1,
      PageDown: at + page,
      PageUp: current === null ? 0 : at - page,
      Home: 0,
      End: rows - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(rows - 1, target));
    setSelected(next);
    virtualizer.scrollToIndex(revealOf(lineOf(next), next < at), { align: "auto" });
  };

  const selectedLine = current === null ? null : lineOf(current);
  const drawn = selectedLine !== null && virtualizer.getVirtualItems().some((v) => v.index === selectedLine);
  return { selected: current, selectedLine, onKeyDown, activeDescendant: drawn ? lineId(selectedLine) : undefined };
}
