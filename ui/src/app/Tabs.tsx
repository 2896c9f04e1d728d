/**
 * The strip of open tabs (tables and queries). Tabs follow the WAI-ARIA tabs pattern: one tab is
 * in the Tab order, arrow keys move between tabs, Delete closes the focused one. Anywhere in the
 * window, the shortcuts from `shortcuts.ts` close (Ctrl/Cmd+W), cycle (Ctrl+Tab, Ctrl+Shift+Tab)
 * and jump to tabs (Ctrl/Cmd+1..9, 9 being the last tab as in browsers).
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { matchesShortcut, shortcutOf } from "./shortcuts";
import "./Tabs.css";

export type TabInfo = {
  id: string;
  /** The tab's title, e.g. the table name. */
  title: string;
  /** A second line of context, e.g. "Query · VEH#V-7741" or the connection name. */
  detail?: string;
};

export type TabsProps = {
  tabs: TabInfo[];
  activeId: string | null;
  onSelect: (id: string) => void;
  onClose: (id: string) => void;
  /** The active tab's content, rendered in the tab panel. */
  children?: ReactNode;
  /** Listen for the window-wide tab shortcuts. Default true. */
  globalShortcuts?: boolean;
};

export function Tabs({ tabs, activeId, onSelect, onClose, children, globalShortcuts = true }: TabsProps) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const state = useRef({ tabs, activeId, onSelect, onClose });
  state.current = { tabs, activeId, onSelect, onClose };

  useEffect(() => {
    if (!globalShortcuts) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      const { tabs, activeId, onSelect, onClose } = state.current;
      const id = shortcutOf(event);
      if (tabs.length === 0 || id === null) return;
      const at = Math.max(0, tabs.findIndex((t) => t.id === activeId));
      let target: TabInfo | undefined;
      if (id === "close-tab" && activeId !== null) {
        event.preventDefault();
        onClose(activeId);
        return;
      }
      if (id === "next-tab") target = tabs[(at + 1) % tabs.length];
      else if (id === "previous-tab") target = tabs[(at - 1 + tabs.length) % tabs.length];
      else if (id === "go-to-tab") {
        const n = Number(event.key);
        target = n === 9 ? tabs[tabs.length - 1] : tabs[n - 1];
      } else return;
      event.preventDefault();
      if (target) onSelect(target.id);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [globalShortcuts]);

  const focusTab = (id: string | undefined) => {
    if (id === undefined) return;
    onSelect(id);
    refs.current.get(id)?.focus();
  };

  const onTabKeyDown = (event: KeyboardEvent, index: number) => {
    const move: Record<string, number | undefined> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const next = move[event.key];
    if (next !== undefined && matchesShortcut("move-tab", event.nativeEvent)) {
      event.preventDefault();
      focusTab(tabs[(next + tabs.length) % tabs.length]?.id);
    } else if (matchesShortcut("close-focused-tab", event.nativeEvent)) {
      event.preventDefault();
      const tab = tabs[index];
      if (tab) onClose(tab.id);
    }
  };

  const active = tabs.find((t) => t.id === activeId) ?? null;
  return (
    <div className="tabs">
      <div role="tablist" aria-label="Open tables and queries" className="tab-strip">
        {tabs.map((tab, index) => {
          const selected = tab.id === activeId;
          return (
            <div key={tab.id} className={`tab${selected ? " tab-active" : ""}`}>
              <button
                type="button"
                role="tab"
                id={`tab-${tab.id}`}
                aria-selected={selected}
                aria-controls={`tabpanel-${tab.id}`}
                tabIndex={selected || (activeId === null && index === 0) ? 0 : -1}
                ref={(el) => {
                  if (el) refs.current.set(tab.id, el);
                  else refs.current.delete(tab.id);
                }}
                className="tab-button"
                onClick={() => onSelect(tab.id)}
                onKeyDown={(event) => onTabKeyDown(event, index)}
              >
                <span className="tab-title">{tab.title}</span>
                {tab.detail !== undefined && <span className="tab-detail">{tab.detail}</span>}
              </button>
              <button type="button" className="tab-close" aria-label={`Close ${tab.title}`} tabIndex={-1} onClick={() => onClose(tab.id)}>
                ×
              </button>
            </div>
          );
        })}
      </div>
      {active !== null && (
        <div role="tabpanel" id={`tabpanel-${active.id}`} aria-labelledby={`tab-${active.id}`} className="tab-panel">
          {children}
        </div>
      )}
    </div>
  );
}
