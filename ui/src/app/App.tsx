import { useCallback, useState } from "react";
import { useAppInfo } from "./useAppInfo";
import { StatusBar } from "./StatusBar";
import { Tabs } from "./Tabs";
import { ShortcutSheet, useShortcutSheet } from "./ShortcutSheet";
import { useShortcut } from "./useShortcut";
import { useTheme } from "./theme";
import { CapacityProvider } from "./capacity";
import { ConnectionsSidebar } from "../features/connections/ConnectionsSidebar";
import { TableScreen } from "../features/tables/TableScreen";
import { CreateTableScreen } from "../features/create/CreateTableScreen";
import type { Profile } from "../ipc/bindings.gen";

/** An open tab: a table of a connection, or the create-table screen of one. */
type OpenTable = { id: string; profile: Profile; table: string } | { id: string; profile: Profile; table: null };

/**
 * The application shell: connections and their tables on the left, open tables as tabs in the
 * work area, the status bar below. Every open table stays mounted (hidden when not active), so
 * switching tabs keeps its query and pages.
 */
export function App() {
  const appInfo = useAppInfo();
  const [open, setOpen] = useState<OpenTable[]>([]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [tablesChanged, setTablesChanged] = useState(0);
  const sheet = useShortcutSheet();
  const theme = useTheme();
  useShortcut("toggle-theme", theme.toggle);

  const openTable = useCallback((profile: Profile, table: string) => {
    const id = `${profile.id}/${table}`;
    setOpen((current) => (current.some((t) => t.id === id) ? current : [...current, { id, profile, table }]));
    setActiveId(id);
  }, []);

  const openCreate = useCallback((profile: Profile) => {
    const id = `${profile.id}/+new`;
    setOpen((current) => (current.some((t) => t.id === id) ? current : [...current, { id, profile, table: null }]));
    setActiveId(id);
  }, []);

  /** The create screen made `table`: its tab becomes the table's, and the lists are read again. */
  const created = (profile: Profile, table: string) => {
    const createId = `${profile.id}/+new`;
    const id = `${profile.id}/${table}`;
    setOpen((current) => [...current.filter((t) => t.id !== createId && t.id !== id), { id, profile, table }]);
    setActiveId(id);
    setTablesChanged((n) => n + 1);
  };

  const close = (id: string) => {
    setOpen((current) => {
      const at = current.findIndex((t) => t.id === id);
      const next = current.filter((t) => t.id !== id);
      if (activeId === id) setActiveId(next[Math.min(at, next.length - 1)]?.id ?? null);
      return next;
    });
  };

  // Open a table: jump to the sidebar's table search.
  useShortcut("open-table", () => {
    document.querySelector<HTMLInputElement>(".table-search")?.focus();
  });

  const active = open.find((t) => t.id === activeId) ?? null;
  return (
    <CapacityProvider>
      <div className="shell">
        <ConnectionsSidebar onOpenTable={openTable} onNewTable={openCreate} tablesChanged={tablesChanged} />
        <main className="work-area">
          {open.length === 0 ? (
            <div className="welcome">
              <h1 className="brand">DynoTable</h1>
              <p className="tagline">DynamoDB tables, drawn as item collections.</p>
              <p className="muted">Open a table from the sidebar. Press ? for the keyboard shortcuts.</p>
            </div>
          ) : (
            <Tabs
              tabs={open.map((t) => ({ id: t.id, title: t.table ?? "New table", detail: t.profile.name }))}
              activeId={activeId}
              onSelect={setActiveId}
              onClose={close}
            >
              {open.map((t) => (
                <div key={t.id} hidden={t.id !== activeId}>
                  {t.table === null ? (
                    <CreateTableScreen profile={t.profile} onCreated={(table) => created(t.profile, table.name)} />
                  ) : (
                    <TableScreen
                      profile={t.profile}
                      tableName={t.table}
                      onDeleted={() => {
                        close(t.id);
                        setTablesChanged((n) => n + 1);
                      }}
                    />
                  )}
                </div>
              ))}
            </Tabs>
          )}
        </main>
        <StatusBar appInfo={appInfo} connection={active === null ? null : `${active.profile.name} · ${active.profile.region}`} theme={theme} />
      </div>
      <ShortcutSheet open={sheet.open} onClose={() => sheet.setOpen(false)} />
    </CapacityProvider>
  );
}
