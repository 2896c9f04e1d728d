/**
 * The views of one table (Collections, Items, Indexes side by side, …) as a strip of tabs, after
 * the WAI-ARIA tabs pattern (`useTabList`): one tab in the Tab order, ←/→ (and Home/End) move
 * between tabs and select them. A view is built the first time it is shown and then kept, hidden,
 * while another is shown, so its query, pages, scroll and form survive a switch.
 *
 * A switch that hides what had the focus (Alt+digit pressed in the view left, a start step
 * opening the table on another view, the bar hidden on Settings) puts the focus on the tab of the
 * view now shown, not on the window's body. The selected tab is also where a table's tab is
 * entered when it is opened (`ARRIVAL`).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import type { ViewId } from "../../shared/tableIntent";
import { useTabList } from "../../shared/useTabList";
import { ARRIVAL } from "../../shared/arrival";
import "./ViewTabs.css";

export type { ViewId };

export type ViewInfo = {
  id: ViewId;
  label: string;
  /** The view's content, built on its first visit. */
  render: () => ReactNode;
  /** The view fills its panel's height and scrolls inside itself (the Collections view's run, the Items view's grid). */
  fill?: boolean;
};

/** The views of every table, in the order of the strip (and of the Alt+1 … Alt+9 shortcuts). */
export const VIEW_ORDER: readonly { id: ViewId; label: string }[] = [
  { id: "collections", label: "Collections" },
  { id: "items", label: "Items" },
  { id: "indexes", label: "Indexes side by side" },
  { id: "cost", label: "Cost" },
  { id: "code", label: "Code & history" },
  { id: "transfer", label: "Import/export" },
  { id: "settings", label: "Settings" },
  { id: "stream", label: "Stream" },
  { id: "ttl", label: "TTL" },
];

export function ViewTabs({
  views,
  active,
  onSelect,
  label,
}: {
  views: ViewInfo[];
  active: ViewId;
  onSelect: (id: ViewId) => void;
  /** The strip's accessible name, e.g. "Views of Telemetry". */
  label: string;
}) {
  const prefix = useId();
  const [visited, setVisited] = useState<ReadonlySet<ViewId>>(() => new Set([active]));
  const tabs = useTabList(
    views.map((v) => v.id),
    active,
    onSelect,
    { shortcut: "move-view" },
  );
  const stripRef = useRef<HTMLDivElement>(null);
  // The active view counts as visited from the render that shows it (no blank frame).
  const built = visited.has(active) ? visited : new Set([...visited, active]);
  if (built !== visited) setVisited(built);

  // The strip scrolls sideways when narrower than its tabs: the active one is kept in it (Alt+digit
  // can select a tab scrolled out of sight).
  useEffect(() => {
    tabs.element(active)?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [active]);

  // The focus left behind by a switch (on the body, in a view or bar now hidden, or on a tab of
  // this strip not selected) goes to the selected tab; never while this table is not on show.
  useLayoutEffect(() => {
    const strip = stripRef.current;
    if (strip === null || strip.closest("[hidden]") !== null) return;
    const focused = document.activeElement;
    const lost =
      focused === null ||
      focused === document.body ||
      focused.closest("[hidden]") !== null ||
      (strip.contains(focused) && focused.getAttribute("aria-selected") !== "true");
    if (lost) tabs.element(active)?.focus({ preventScroll: true });
  }, [active]);

  return (
    <div className="view-tabs">
      <div role="tablist" aria-label={label} className="view-strip" ref={stripRef}>
        {views.map((view, index) => {
          const selected = view.id === active;
          return (
            <button
              key={view.id}
              type="button"
              {...tabs.tabProps(view.id)}
              {...(selected ? ARRIVAL : {})}
              id={`${prefix}-tab-${view.id}`}
              aria-controls={`${prefix}-panel-${view.id}`}
              aria-keyshortcuts={index < 9 ? `Alt+${index + 1}` : undefined}
              title={index < 9 ? `${view.label} (Alt+${index + 1})` : view.label}
              data-testid={`view-tab-${view.id}`}
              className={`view-tab${selected ? " view-tab-active" : ""}`}
            >
              {view.label}
            </button>
          );
        })}
      </div>
      {views
        .filter((view) => built.has(view.id))
        .map((view) => (
          <div
            key={view.id}
            role="tabpanel"
            id={`${prefix}-panel-${view.id}`}
            aria-labelledby={`${prefix}-tab-${view.id}`}
            hidden={view.id !== active}
            data-testid={`view-${view.id}`}
            className={view.fill ? "view-panel view-panel-fill" : "view-panel"}
          >
            {view.render()}
          </div>
        ))}
    </div>
  );
}
