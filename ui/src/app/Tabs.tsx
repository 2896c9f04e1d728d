/**
 * The strip of open tabs (tables and queries). Tabs follow the WAI-ARIA tabs pattern
 * (`useTabList`): one tab is in the Tab order, arrow keys move between tabs, Delete closes the
 * focused one. Anywhere in the window, the shortcuts from `shortcuts.ts` close (Ctrl/Cmd+W), cycle
 * (Ctrl+Tab, Ctrl+Shift+Tab) and jump to tabs (Ctrl/Cmd+1..9, 9 being the last tab as in
 * browsers). A tab closed with the focus in it (or in its page) leaves the focus on the tab that
 * is active next.
 *
 * More tabs than the strip is wide: it scrolls sideways, the active tab always brought into it, the
 * mouse wheel scrolling it too, and a ‹ or › at either end (with a fade) says more tabs are there
 * and scrolls to them.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { matchesShortcut, shortcutOf } from "./shortcuts";
import { useTabList } from "../shared/useTabList";
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
  // ←/→/Home/End between the tabs (the roving Tab stop); Delete closes the focused one.
  const tabList = useTabList(
    tabs.map((t) => t.id),
    activeId,
    onSelect,
    {
      shortcut: "move-tab",
      onKeyDown: (event, id) => {
        if (!matchesShortcut("close-focused-tab", event.nativeEvent)) return;
        event.preventDefault();
        onClose(id);
      },
    },
  );
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

  // The strip: which ends have tabs beyond them, kept as it scrolls and resizes.
  const stripRef = useRef<HTMLDivElement>(null);
  const [beyond, setBeyond] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const strip = stripRef.current;
    if (strip === null) return;
    const left = strip.scrollLeft > 1;
    const right = strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1;
    setBeyond((b) => (b.left === left && b.right === right ? b : { left, right }));
  }, []);
  useLayoutEffect(measure, [tabs.length, measure]);
  useEffect(() => {
    const strip = stripRef.current;
    if (strip === null) return;
    // A vertical wheel scrolls the strip sideways (not passive: the page must not scroll instead).
    const onWheel = (event: WheelEvent) => {
      if (strip.scrollWidth <= strip.clientWidth || event.deltaY === 0 || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
      event.preventDefault();
      strip.scrollLeft += event.deltaY;
      measure();
    };
    strip.addEventListener("wheel", onWheel, { passive: false });
    const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    resized?.observe(strip);
    return () => {
      strip.removeEventListener("wheel", onWheel);
      resized?.disconnect();
    };
  }, [measure]);
  // The active tab is kept in sight (selected by a shortcut, opened from the sidebar, or the strip narrowed).
  useEffect(() => {
    if (activeId === null) return;
    tabList.element(activeId)?.parentElement?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    measure();
  }, [activeId, tabs.length, measure]);
  const scrollBy = (direction: -1 | 1) => {
    const strip = stripRef.current;
    if (strip === null) return;
    strip.scrollBy?.({ left: direction * strip.clientWidth * 0.8, behavior: "smooth" });
  };

  // A tab closed (Ctrl+W, Delete on it, its ×) took the focus with it (the tab, or the content of
  // the page it showed): the focus goes to the tab that is active now, not to the window's body.
  const count = useRef(tabs.length);
  const closed = useRef(false);
  useLayoutEffect(() => {
    if (tabs.length < count.current) closed.current = true;
    count.current = tabs.length;
    const tab = activeId === null ? undefined : tabList.element(activeId);
    if (!closed.current || tab === undefined) return;
    closed.current = false;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) tab.focus();
  }, [tabs.length, activeId]);

  const active = tabs.find((t) => t.id === activeId) ?? null;
  return (
    <div className="tabs">
      <div className={`tab-strip-frame${beyond.left ? " tabs-beyond-left" : ""}${beyond.right ? " tabs-beyond-right" : ""}`}>
        {beyond.left && (
          <button type="button" className="tab-scroll tab-scroll-left" tabIndex={-1} aria-label="Show the tabs to the left" title="More tabs to the left" onClick={() => scrollBy(-1)} data-testid="tabs-scroll-left">
            ‹
          </button>
        )}
        <div role="tablist" aria-label="Open tables and queries" className="tab-strip" ref={stripRef} onScroll={measure}>
          {tabs.map((tab) => {
            const selected = tab.id === activeId;
            return (
              <div key={tab.id} className={`tab${selected ? " tab-active" : ""}`}>
                <button type="button" {...tabList.tabProps(tab.id)} id={`tab-${tab.id}`} aria-controls={`tabpanel-${tab.id}`} className="tab-button">
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
        {beyond.right && (
          <button type="button" className="tab-scroll tab-scroll-right" tabIndex={-1} aria-label="Show the tabs to the right" title="More tabs to the right" onClick={() => scrollBy(1)} data-testid="tabs-scroll-right">
            ›
          </button>
        )}
      </div>
      {active !== null && (
        <div role="tabpanel" id={`tabpanel-${active.id}`} aria-labelledby={`tab-${active.id}`} className="tab-panel">
          {children}
        </div>
      )}
    </div>
  );
}
