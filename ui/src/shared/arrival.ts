/**
 * Where the focus arrives in a tab opened from elsewhere (a table chosen in the sidebar's search,
 * the PartiQL button, the status bar's Data modeler, a start step): each screen marks the element
 * its content is entered at with `ARRIVAL` (a table's selected view tab, the PartiQL editor, the
 * modeler's first field), and `arriveIn` moves the focus there as soon as it is drawn, so the
 * content is one Tab away from the opener, not ten or twenty.
 *
 * ```tsx
 * <h1 tabIndex={-1} {...ARRIVAL}>…</h1>
 * ```
 */

/** The attribute that marks where a tab's content is entered. */
export const ARRIVAL = { "data-arrival": "" } as const;

const SELECTOR = "[data-arrival]";

/** The element of `page` its content is entered at, when drawn and on show. */
export function arrivalOf(page: HTMLElement): HTMLElement | null {
  for (const element of page.querySelectorAll<HTMLElement>(SELECTOR)) {
    if (element.closest("[hidden]") === null) return element;
  }
  return null;
}

/**
 * Moves the focus to where `page` is entered, now if it is drawn, otherwise as soon as it is (a
 * table is described first). The wait ends when the user does anything meanwhile (a key, a click,
 * the focus moved: they went on elsewhere, and the focus is not taken from them), or when the
 * returned function is called (another tab opened, the page gone).
 */
export function arriveIn(page: HTMLElement): () => void {
  const target = arrivalOf(page);
  if (target !== null) {
    target.focus();
    return () => {};
  }
  const observer = new MutationObserver(() => {
    const found = arrivalOf(page);
    if (found === null) return;
    stop();
    found.focus();
  });
  const stop = () => {
    observer.disconnect();
    for (const type of ["keydown", "pointerdown", "focusin"] as const) document.removeEventListener(type, stop, true);
  };
  observer.observe(page, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "data-arrival"] });
  for (const type of ["keydown", "pointerdown", "focusin"] as const) document.addEventListener(type, stop, true);
  return stop;
}
