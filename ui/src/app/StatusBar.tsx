import type { AppInfo } from "../ipc/bindings.gen";
import { errorTitle, type Loadable, type UiError } from "../ipc/result";
import { useCapacityTotals } from "./capacity";
import { formatCountOf, formatUnits } from "../shared/format";
import type { ThemeChoice } from "./theme";

/**
 * The bottom bar: the active connection, the capacity used since the app started, the version,
 * the embedded engine's state and the data folder.
 */
export function StatusBar({
  appInfo,
  connection = null,
  notice = null,
  theme = null,
  help = null,
}: {
  appInfo: Loadable<AppInfo, UiError>;
  connection?: string | null;
  /** What just happened out of sight (a table deleted and its tab closed). */
  notice?: string | null;
  theme?: { choice: ThemeChoice; toggle: () => void } | null;
  /** Help's entries: the start screen, the keyboard shortcuts, the modeler and updates. */
  help?: { onStart: () => void; onShortcuts: () => void; onModeler?: () => void; onUpdates?: () => void } | null;
}) {
  const totals = useCapacityTotals();
  return (
    <footer className="status-bar" role="status" aria-label="Status bar">
      {connection !== null && <span data-testid="active-connection">{connection}</span>}
      {notice !== null && (
        <span className="status-notice" data-testid="status-notice" title={notice}>
          {notice}
        </span>
      )}
      <span data-testid="capacity-used" title="Capacity units DynamoDB reported for every read and write since DynoTable started">
        Used since start: {formatUnits(totals.readUnits)} RCU · {formatUnits(totals.writeUnits)} WCU
      </span>
      {appInfo.status === "loading" && <span>Connecting to the backend…</span>}
      {appInfo.status === "error" && (
        <span className="status-error" title={appInfo.error.message}>
          {errorTitle(appInfo.error.code)}: {appInfo.error.message}
        </span>
      )}
      {appInfo.status === "ok" && <AppInfoItems info={appInfo.data} />}
      {theme !== null && (
        <button
          type="button"
          className="theme-toggle"
          data-testid="theme-toggle"
          onClick={theme.toggle}
          title="Switch the theme: system, light, dark (Ctrl+Shift+L)"
        >
          ◐ <span className="theme-word">Theme: </span>
          {theme.choice}
        </button>
      )}
      {help !== null && (
        <span className="status-help">
          <button type="button" onClick={help.onStart} data-testid="help-start" title="Help: the start screen, the demo story step by step">
            Start screen
          </button>
          <button type="button" onClick={help.onShortcuts} data-testid="help-shortcuts" title="Help: every keyboard shortcut (?)">
            Shortcuts ?
          </button>
          {help.onModeler !== undefined && (
            <button type="button" onClick={help.onModeler} data-testid="open-modeler" title="The data modeler: sketch a key schema, see its collections, costs and partitions">
              Data modeler
            </button>
          )}
          {help.onUpdates !== undefined && (
            <button type="button" onClick={help.onUpdates} data-testid="help-updates" title={`Help: check for a newer version of DynoTable${appInfo.status === "ok" ? ` (this is ${appInfo.data.version})` : ""}; asks the release server only now`}>
              Updates
            </button>
          )}
        </span>
      )}
    </footer>
  );
}

function AppInfoItems({ info }: { info: AppInfo }) {
  const { engine } = info;
  const detail =
    engine.state === "ready"
      ? engine.tableCount !== null
        ? ` · ${formatCountOf(engine.tableCount, "table")}`
        : ""
      : engine.message !== null
        ? ` · ${engine.message}`
        : "";
  return (
    <>
      <span data-testid="app-version" className="app-version">
        DynoTable {info.version}
      </span>
      <span data-testid="engine-state" className={`engine-state engine-${engine.state}`} title={`Embedded engine: ${engine.state}${detail}`}>
        Embedded engine: {engine.state}
        {detail}
      </span>
      <span data-testid="data-dir" className="data-dir" title={info.enginePath}>
        Data: {info.dataDir}
      </span>
    </>
  );
}
