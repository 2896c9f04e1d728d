/**
 * The start screen: the demo story in five steps, each one click that opens the real table on
 * the real view with the real request (see `story.ts`). Shown on the first launch as the first
 * tab; the user dismisses it, and the status bar's "Start screen" button shows it again (the
 * focus on its title). A step's table opens with the focus on what the step shows: the box of
 * step 1, the view of the others (its tab, `ViewTabs`).
 */
import type { Profile } from "../../ipc/bindings.gen";
import type { TableIntent } from "../../shared/tableIntent";
import { STORY } from "./story";
import type { DemoTables } from "./useDemoTables";
import type { Loadable, UiError } from "../../ipc/result";
import { ARRIVAL } from "../../shared/arrival";
import "./StartScreen.css";

export type StartScreenProps = {
  demo: Loadable<DemoTables, UiError>;
  onOpen: (profile: Profile, table: string, intent: Omit<TableIntent, "n">) => void;
  onDismiss: () => void;
};

export function StartScreen({ demo, onOpen, onDismiss }: StartScreenProps) {
  return (
    <section className="start-screen" aria-labelledby="start-title" data-testid="start-screen">
      <header className="start-head">
        <div>
          <h1 id="start-title" className="brand" tabIndex={-1} {...ARRIVAL}>
            DynoTable
          </h1>
          <p className="tagline">DynamoDB tables, drawn as DynamoDB lays them out.</p>
        </div>
        <button type="button" onClick={onDismiss} data-testid="start-dismiss">
          Dismiss
        </button>
      </header>
      <p className="start-intro">
        The embedded engine holds demo tables. Each step opens one of them on the view that shows the idea, with the request it
        makes. Open any table from the sidebar at any time; the “Start screen” button in the status bar brings this screen back.
      </p>
      {demo.status === "loading" && (
        <p className="muted" data-testid="start-loading">
          Waiting for the embedded engine and its demo tables…
        </p>
      )}
      {demo.status === "error" && (
        <p className="status-error" role="alert">
          The demo tables cannot be reached: {demo.error.message}
        </p>
      )}
      <ol className="start-steps">
        {STORY.map((step, i) => {
          const missing = demo.status === "ok" && !demo.data.tables.has(step.table);
          const ready = demo.status === "ok" && !missing;
          return (
            <li key={step.id} className="start-step" data-testid={`start-step-${step.id}`}>
              <span className="start-step-number" aria-hidden="true">
                {i + 1}
              </span>
              <div className="start-step-body">
                <h2>{step.title}</h2>
                <p>{step.what}</p>
                {missing && (
                  <p className="muted" data-testid="start-step-missing">
                    The demo table {step.table} is not in the embedded engine any more: “Reset demo data…” in the sidebar loads it again.
                  </p>
                )}
              </div>
              <button
                type="button"
                className="start-step-open"
                disabled={!ready}
                onClick={() => demo.status === "ok" && onOpen(demo.data.profile, step.table, step.intent)}
                aria-label={`Step ${i + 1}: ${step.title} (opens ${step.table})`}
              >
                Show me
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
