import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";
import { flushSync } from "react-dom";
import { useAppInfo } from "./useAppInfo";
import { StatusBar } from "./StatusBar";
import { Tabs } from "./Tabs";
import { ShortcutSheet, useShortcutSheet } from "./ShortcutSheet";
import { UpdateDialog } from "./UpdateDialog";
import { useShortcut } from "./useShortcut";
import { useTheme } from "./theme";
import { useSidebar } from "./sidebar";
import { useSelectAllInFields } from "./useSelectAllInFields";
import { CapacityProvider } from "./capacity";
import { CredentialPrompt } from "./CredentialPrompt";
import { DiscardNewTable } from "./DiscardNewTable";
import { ConnectionsSidebar } from "../features/connections/ConnectionsSidebar";
import { TableScreen } from "../features/tables/TableScreen";
import { StartScreen } from "../features/start/StartScreen";
import { PartiqlScreen } from "../features/partiql/PartiqlScreen";
import { useStartScreen } from "../features/start/useStartScreen";
import { useDemoTables } from "../features/start/useDemoTables";
import { CreateTableScreen } from "../features/create/CreateTableScreen";
import { ModelerScreen } from "../features/modeler/ModelerScreen";
import type { Profile } from "../ipc/bindings.gen";
import type { TableIntent } from "../shared/tableIntent";
import { arrivalOf, arriveIn } from "../shared/arrival";
import { tabbables } from "../shared/useModalDialog";

/**
 * An open tab: a table of a connection (with what was last asked of it from outside), or the
 * create-table screen of one (`table: null`).
 */
type OpenTable = { id: string; profile: Profile; table: string | null; intent: TableIntent | null };

/** The start screen's tab. */
const START = "start";
/** The data modeler's tab. */
const MODELER = "modeler";
/** How long a notice (a table deleted) stays in the status bar. */
const NOTICE_MS = 20_000;

/**
 * The application shell: connections and their tables on the left (collapsible to a narrow rail,
 * Ctrl+B, the choice remembered), open tables as tabs in the work area, the status bar below. Every open table stays mounted (hidden when not active), so
 * switching tabs keeps its query and pages.
 *
 * A tab opened from elsewhere (the table search, the PartiQL button, the status bar, a start step)
 * takes the focus into its content (`arriveIn`), and "Skip to content", the window's first Tab
 * stop, goes there too. Mod+A selects text in fields only (`useSelectAllInFields`).
 */
export function App() {
  const [open, setOpen] = useState<OpenTable[]>([]);
  const [activeId, setActiveId] = useState<string | null>(null);
  // Grows when tables are created or deleted: the sidebar's lists and the status bar's count follow.
  const [tablesChanged, setTablesChanged] = useState(0);
  const appInfo = useAppInfo(tablesChanged);
  const sheet = useShortcutSheet();
  const [updatesOpen, setUpdatesOpen] = useState(false);
  const theme = useTheme();
  useShortcut("toggle-theme", theme.toggle);
  const sidebar = useSidebar();
  useShortcut("toggle-sidebar", sidebar.toggle);
  useSelectAllInFields();

  // The page of each tab, and the one just opened from elsewhere: the focus goes into it.
  const pages = useRef(new Map<string, HTMLElement>());
  const pageRef = (id: string) => (element: HTMLElement | null) => {
    if (element) pages.current.set(id, element);
    else pages.current.delete(id);
  };
  const [arrival, setArrival] = useState<{ id: string; n: number } | null>(null);
  const arrive = useCallback((id: string) => setArrival((a) => ({ id, n: (a?.n ?? 0) + 1 })), []);
  useEffect(() => {
    const page = arrival === null ? undefined : pages.current.get(arrival.id);
    return page === undefined ? undefined : arriveIn(page);
  }, [arrival]);
  const mainRef = useRef<HTMLElement>(null);

  // New table tabs the user typed or chose something in: closing one asks first.
  const [filled, setFilled] = useState<ReadonlySet<string>>(new Set());
  const [askingClose, setAskingClose] = useState<string | null>(null);
  // What just happened out of sight (a table deleted, its tab closed), said in the status bar.
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const forget = (id: string) =>
    setFilled((current) => {
      if (!current.has(id)) return current;
      const next = new Set(current);
      next.delete(id);
      return next;
    });

  const start = useStartScreen();
  const demo = useDemoTables(appInfo.status === "ok" ? appInfo.data.engine.state : null);

  // PartiQL tabs, one per connection, by id `partiql/<profile id>`.
  const [editors, setEditors] = useState<Profile[]>([]);
  const partiqlId = (profile: Profile) => `partiql/${profile.id}`;
  const openPartiql = useCallback((profile: Profile) => {
    setEditors((current) => (current.some((p) => p.id === profile.id) ? current : [...current, profile]));
    setActiveId(`partiql/${profile.id}`);
    arrive(`partiql/${profile.id}`);
  }, [arrive]);

  // The data modeler: one tab, kept mounted while open so the model survives tab switches.
  const [modeler, setModeler] = useState(false);
  const openModeler = useCallback(() => {
    setModeler(true);
    setActiveId(MODELER);
    arrive(MODELER);
  }, [arrive]);

  const openTable = useCallback((profile: Profile, table: string, asked?: Omit<TableIntent, "n">) => {
    const id = `${profile.id}/${table}`;
    setOpen((current) => {
      const existing = current.find((t) => t.id === id);
      const n = (existing?.intent?.n ?? 0) + 1;
      const intent = asked === undefined ? (existing?.intent ?? null) : { ...asked, n };
      if (existing === undefined) return [...current, { id, profile, table, intent }];
      return current.map((t) => (t.id === id ? { ...t, intent } : t));
    });
    setActiveId(id);
    arrive(id);
  }, [arrive]);

  const showStart = () => {
    start.reopen();
    setActiveId(START);
    arrive(START);
  };

  const openCreate = useCallback((profile: Profile) => {
    const id = `${profile.id}/+new`;
    setOpen((current) => (current.some((t) => t.id === id) ? current : [...current, { id, profile, table: null, intent: null }]));
    setActiveId(id);
    arrive(id);
  }, [arrive]);

  /** The create screen made `table`: its tab becomes the table's, and the lists are read again. */
  const created = (profile: Profile, table: string) => {
    const createId = `${profile.id}/+new`;
    const id = `${profile.id}/${table}`;
    setOpen((current) => [...current.filter((t) => t.id !== createId && t.id !== id), { id, profile, table, intent: null }]);
    setActiveId(id);
    arrive(id);
    setTablesChanged((n) => n + 1);
    forget(createId);
  };

  /** Closes a tab; a New table tab with something entered in it only once the user agrees. */
  const close = (id: string) => {
    if (filled.has(id)) setAskingClose(id);
    else closeNow(id);
  };

  const closeNow = (id: string) => {
    forget(id);
    if (id === START) {
      start.dismiss();
      if (activeId === START) setActiveId(open[0]?.id ?? null);
      return;
    }
    if (id === MODELER) {
      setModeler(false);
      if (activeId === MODELER) setActiveId(open[0]?.id ?? (start.shown ? START : null));
      return;
    }
    if (id.startsWith("partiql/")) {
      setEditors((current) => current.filter((p) => partiqlId(p) !== id));
      if (activeId === id) setActiveId(open[0]?.id ?? (start.shown ? START : null));
      return;
    }
    setOpen((current) => {
      const at = current.findIndex((t) => t.id === id);
      const next = current.filter((t) => t.id !== id);
      if (activeId === id) setActiveId(next[Math.min(at, next.length - 1)]?.id ?? (start.shown ? START : null));
      return next;
    });
  };

  // Open a table: jump to the sidebar's table search (the sidebar shown whole first, if collapsed).
  useShortcut("open-table", () => {
    if (sidebar.collapsed) flushSync(() => sidebar.setCollapsed(false));
    document.querySelector<HTMLInputElement>(".table-search")?.focus();
  });

  const active = open.find((t) => t.id === activeId) ?? null;
  const activeProfile = active?.profile ?? editors.find((p) => partiqlId(p) === activeId) ?? null;
  const tabs = [
    ...(start.shown ? [{ id: START, title: "Start", detail: "the demo story" }] : []),
    ...open.map((t) => ({ id: t.id, title: t.table ?? "New table", detail: t.profile.name })),
    ...editors.map((p) => ({ id: partiqlId(p), title: `PartiQL · ${p.name}`, detail: p.region })),
    ...(modeler ? [{ id: MODELER, title: "Data modeler", detail: "a key schema, before a table exists" }] : []),
  ];
  // The start tab is on show when it is asked for, or when nothing else is open.
  const shownId = activeId ?? (start.shown ? START : null);
  // "Skip to content": where the tab on show is entered, or the first control of the work area.
  const skipToContent = (event: MouseEvent) => {
    event.preventDefault();
    const main = mainRef.current;
    if (main === null) return;
    const page = shownId === null ? undefined : pages.current.get(shownId);
    const target = (page === undefined ? null : (arrivalOf(page) ?? tabbables(page)[0])) ?? tabbables(main)[0];
    target?.focus();
  };
  return (
    <CapacityProvider>
      <a href="#work-area" className="skip-link" onClick={skipToContent} data-testid="skip-to-content">
        Skip to content
      </a>
      <div className={`shell${sidebar.collapsed ? " shell-sidebar-collapsed" : ""}`}>
        <ConnectionsSidebar
          onOpenTable={openTable}
          onNewTable={openCreate}
          tablesChanged={tablesChanged}
          onOpenPartiql={openPartiql}
          collapsed={sidebar.collapsed}
          onToggleCollapsed={sidebar.toggle}
        />
        <main className="work-area" id="work-area" ref={mainRef}>
          {tabs.length === 0 ? (
            <div className="welcome">
              <h1 className="brand">DynoTable</h1>
              <p className="tagline">DynamoDB tables, drawn as item collections.</p>
              <p className="muted">
                Open a table from the sidebar. Press ? for the keyboard shortcuts.{" "}
                <button type="button" className="link" onClick={showStart} data-testid="welcome-start">
                  Show the start screen
                </button>
              </p>
            </div>
          ) : (
            <Tabs tabs={tabs} activeId={shownId} onSelect={setActiveId} onClose={close}>
              {start.shown && (
                <div key={START} hidden={shownId !== START} ref={pageRef(START)}>
                  <StartScreen demo={demo} onOpen={openTable} onDismiss={() => close(START)} />
                </div>
              )}
              {open.map((t) => (
                <div
                  key={t.id}
                  hidden={t.id !== shownId}
                  className="tab-page"
                  ref={pageRef(t.id)}
                  // A change in the New table form (typed, chosen, ticked): closing the tab asks first.
                  onChange={t.table === null ? () => !filled.has(t.id) && setFilled((current) => new Set(current).add(t.id)) : undefined}
                >
                  {t.table === null ? (
                    <CreateTableScreen profile={t.profile} onCreated={(table) => created(t.profile, table.name)} />
                  ) : (
                    <TableScreen
                      profile={t.profile}
                      tableName={t.table}
                      intent={t.intent}
                      onDeleted={() => {
                        closeNow(t.id);
                        setTablesChanged((n) => n + 1);
                        setNotice(`Deleted table ${t.table} from ${t.profile.name}: its tab was closed.`);
                      }}
                    />
                  )}
                </div>
              ))}
              {editors.map((p) => (
                <div key={partiqlId(p)} hidden={partiqlId(p) !== shownId} ref={pageRef(partiqlId(p))}>
                  <PartiqlScreen profile={p} />
                </div>
              ))}
              {modeler && (
                <div key={MODELER} hidden={shownId !== MODELER} className="modeler-host" ref={pageRef(MODELER)}>
                  <ModelerScreen
                    onApplied={() => setTablesChanged((n) => n + 1)}
                    onRunPattern={
                      demo.status === "ok"
                        ? (read) =>
                            openTable(demo.data.profile, read.tableName, {
                              view: "collections",
                              groupBy: read.indexName ?? null,
                              request: read,
                            })
                        : undefined
                    }
                  />
                </div>
              )}
            </Tabs>
          )}
        </main>
        <StatusBar
          appInfo={appInfo}
          connection={activeProfile === null ? null : `${activeProfile.name} · ${activeProfile.region}`}
          notice={notice}
          theme={theme}
          help={{
            onStart: showStart,
            onShortcuts: () => sheet.setOpen(true),
            onModeler: openModeler,
            onUpdates: () => setUpdatesOpen(true),
          }}
        />
      </div>
      <ShortcutSheet open={sheet.open} onClose={() => sheet.setOpen(false)} />
      {updatesOpen && <UpdateDialog open={updatesOpen} onClose={() => setUpdatesOpen(false)} />}
      <CredentialPrompt profiles={[...open.map((t) => t.profile), ...editors]} />
      {askingClose !== null && (
        <DiscardNewTable
          connection={open.find((t) => t.id === askingClose)?.profile.name ?? "the connection"}
          onKeep={() => setAskingClose(null)}
          onDiscard={() => {
            setAskingClose(null);
            closeNow(askingClose);
          }}
        />
      )}
    </CapacityProvider>
  );
}
