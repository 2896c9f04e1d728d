import { useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { matchesShortcut } from "../../app/shortcuts";
import { useUnguardedCommands } from "../../ipc/CommandsContext";
import { errorTitle, unwrap } from "../../ipc/result";
import { MfaPrompt } from "./MfaPrompt";
import { SsoSignIn } from "./SsoSignIn";
import { useTableNames } from "./useTableNames";

/**
 * A connection's tables, with a search box; choosing one opens it. In the search box (Ctrl/Cmd+O
 * goes there) ↑/↓ move a highlight over the tables found (the first one at the start), Enter
 * opens the highlighted one, Escape clears the search and, once clear, goes to the highlighted
 * table (so the focus stays in the list, never on the window's body).
 *
 * The box and the list are the WAI-ARIA combobox pattern: the box a `combobox` controlling the
 * `listbox` of tables, the highlighted `option` its active descendant (`aria-selected`), so a screen
 * reader says the table Enter would open. The options are buttons too, for the pointer and Tab.
 */
export function TableList({
  profileId,
  onOpen,
  onNewTable,
}: {
  profileId: string;
  onOpen: (table: string) => void;
  /** Opens the create-table screen for this connection. */
  onNewTable?: (() => void) | undefined;
}) {
  const source = useUnguardedCommands();
  const [search, setSearch] = useState("");
  const [attempt, setAttempt] = useState(0);
  const tables = useTableNames(profileId, attempt);
  // The table Enter opens, by its place among those found.
  const [highlight, setHighlight] = useState(0);
  const listId = useId();

  const shown = useMemo(() => {
    if (tables.status !== "ok") return [];
    const needle = search.trim().toLowerCase();
    return needle === "" ? tables.data : tables.data.filter((name) => name.toLowerCase().includes(needle));
  }, [tables, search]);

  // A new search highlights its first match again.
  useEffect(() => setHighlight(0), [search]);
  const highlighted = shown.length === 0 ? -1 : Math.min(highlight, shown.length - 1);
  const optionId = (i: number) => `${listId}-table-${i}`;
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const native = event.nativeEvent;
    if (matchesShortcut("move-table-match", native)) {
      if (shown.length === 0) return;
      event.preventDefault();
      const next = Math.max(0, Math.min(shown.length - 1, highlighted + (event.key === "ArrowUp" ? -1 : 1)));
      setHighlight(next);
      document.getElementById(optionId(next))?.scrollIntoView?.({ block: "nearest" });
    } else if (matchesShortcut("open-table-match", native)) {
      const name = shown[highlighted];
      if (name === undefined) return;
      event.preventDefault();
      onOpen(name);
    } else if (matchesShortcut("leave-table-search", native)) {
      event.preventDefault();
      if (search !== "") setSearch("");
      else if (highlighted >= 0) document.getElementById(optionId(highlighted))?.focus();
    }
  };

  if (tables.status === "loading") return <p className="muted table-list-note">Loading tables…</p>;
  if (tables.status === "error" && tables.error.code === "MFA_REQUIRED") {
    return (
      <MfaPrompt
        message={tables.error.message}
        submit={async (code) => {
          const result = await unwrap(source.provideMfaCode(profileId, code));
          if (result.status === "ok") setAttempt((n) => n + 1);
          return result.status === "error" ? result.error : null;
        }}
      />
    );
  }
  if (tables.status === "error" && tables.error.code === "SSO_SIGN_IN_REQUIRED") {
    return <SsoSignIn profileId={profileId} message={tables.error.message} onSignedIn={() => setAttempt((n) => n + 1)} />;
  }
  if (tables.status === "error") {
    return (
      <p className="status-error table-list-note" role="alert">
        {errorTitle(tables.error.code)}: {tables.error.message}
      </p>
    );
  }
  return (
    <div className="table-list" data-testid={`tables-${profileId}`}>
      {onNewTable !== undefined && (
        <button type="button" className="link-button new-table" onClick={onNewTable} data-testid={`new-table-${profileId}`}>
          + New table
        </button>
      )}
      <input
        type="search"
        role="combobox"
        className="table-search"
        placeholder={`Search ${tables.data.length} tables`}
        aria-label="Search tables"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={onSearchKey}
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={highlighted < 0 ? undefined : optionId(highlighted)}
      />
      {shown.length === 0 && <p className="muted table-list-note">{tables.data.length === 0 ? "No tables." : "No table matches."}</p>}
      <ul id={listId} role="listbox" aria-label="Tables">
        {shown.map((name, i) => (
          <li key={name} role="none">
            <button
              type="button"
              role="option"
              id={optionId(i)}
              className={`table-link${i === highlighted ? " table-link-highlighted" : ""}`}
              aria-selected={i === highlighted}
              onClick={() => onOpen(name)}
              data-testid={`open-table-${name}`}
            >
              {name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
