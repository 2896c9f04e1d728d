/**
 * What a view does when a fault in DynoTable's own code makes it throw while it is drawn: that
 * view alone is replaced by a plain sentence and a button that draws it afresh, and the rest of
 * the window (the other tabs, the sidebar, the status bar) keeps working. Without it React
 * unmounts the whole app and leaves an empty window.
 *
 * ```tsx
 * <ViewBoundary what="The Settings view"><TableSettings … /></ViewBoundary>
 * ```
 */
import { Component, Fragment, createRef, type ErrorInfo, type ReactNode } from "react";
import "./ViewBoundary.css";

type Props = {
  /** The view, as the sentence names it: "The New table form", "The Settings view". */
  what: string;
  children?: ReactNode;
};

type State = { error: Error | null; attempt: number };

export class ViewBoundary extends Component<Props, State> {
  state: State = { error: null, attempt: 0 };
  private reloadButton = createRef<HTMLButtonElement>();

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    // Kept in the web view's console for a bug report; the view says what happened in words.
    console.error(`${this.props.what} failed:`, error, info.componentStack);
  }

  componentDidUpdate(_: Props, previous: State) {
    // The focus was inside what was just taken away: give it the way back.
    if (previous.error === null && this.state.error !== null) this.reloadButton.current?.focus();
  }

  private reload = () => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));

  render() {
    const { error, attempt } = this.state;
    if (error === null) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    return (
      <div className="view-failed" role="alert" data-testid="view-failed">
        <p>
          {this.props.what} stopped because of a fault in DynoTable. Nothing was sent to DynamoDB because of it, and the rest of the
          window still works.
        </p>
        <button type="button" ref={this.reloadButton} data-testid="view-failed-reload" onClick={this.reload}>
          Reload this view
        </button>
        <details>
          <summary>What failed</summary>
          <code>{error.message}</code>
        </details>
      </div>
    );
  }
}
