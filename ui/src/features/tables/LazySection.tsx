import { useState, type ReactNode } from "react";

/**
 * A collapsible section whose content is built the first time it is opened, then kept: the
 * cost, builder and index views cost requests and rendering, so a table opens without them.
 */
export function LazySection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <details className="table-section" data-testid={testId} onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>{title}</summary>
      {opened && children}
    </details>
  );
}
