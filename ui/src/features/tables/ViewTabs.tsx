/**
 * The views of one table (Collections, Items, Indexes side by side, …) as a strip of tabs, after
 * the WAI-ARIA tabs pattern (`useTabList`): one tab in the Tab order, ←/→ (and Home/End) move
 * between tabs and select them. A view is built the first time it is shown and then kept, hidden,
 * while another is shown, so its query, pages, scroll and form survive a switch.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import type { ViewId } from "../../shared/tableIntent";
import { useTabList } from "../../shared/useTabList";
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
  // The active view counts as visited from the render that shows it (no blank frame).
  const built = visited.has(active) ? visited : new Set([...visited, active]);
  if (built !== visited) setVisited(built);

  // The strip scrolls sideways when narrower than its tabs: the active one is kept in it (Alt+digit
  // can select a tab scrolled out of sight).
  useEffect(() => {
    tabs.element(active)?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [active]);

  return (
    <div className="view-tabs">
      <div role="tablist" aria-label={label} className="view-strip">
        {views.map((view, index) => {
          const selected = view.id === active;
          return (
            <button
              key={view.id}
              type="button"
              {...tabs.tabProps(view.id)}
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
