import { useCallback, useState } from "react";
import type { QueryPage, ReadRequest, TableDescription } from "../../ipc/bindings.gen";
import { CollectionBox } from "../explorer/CollectionBox";
import type { Item } from "../explorer/model";
import { formatCount } from "./format";

/** What the query builder ran, page after page. */
export type BuilderRun = { request: ReadRequest; pages: QueryPage[] };

/** Keeps the builder's pages: a new run replaces them, "Next page" appends. */
export function useBuilderRuns() {
  const [run, setRun] = useState<BuilderRun | null>(null);
  const onResult = useCallback((page: QueryPage, request: ReadRequest, startKey: unknown) => {
    setRun((current) => (startKey === null || current === null ? { request, pages: [page] } : { request, pages: [...current.pages, page] }));
  }, []);
  return { run, onResult };
}

/**
 * The builder's results drawn as DynamoDB holds them: a Query's items are one collection, shown
 * as its dashed box; a Scan crosses collections, so it is summarised.
 */
export function BuilderResults({ table, run, onEdit }: { table: TableDescription; run: BuilderRun; onEdit: (item: Item) => void }) {
  const items = run.pages.reduce((n, p) => n + p.items.length, 0);
  const index = run.request.indexName ?? null;
  const keys = index === null ? table.keys : (table.indexes.find((i) => i.name === index)?.keys ?? table.keys);
  const first = run.pages.find((p) => p.items.length > 0)?.items[0];
  const partitionValue = first?.[keys.partitionKey.name];
  if (run.request.operation !== "Query" || partitionValue === undefined) {
    return (
      <p className="muted" data-testid="builder-results">
        {run.request.operation === "Query" ? "The query returned no items" : `The scan returned ${formatCount(items)} items`} in{" "}
        {run.pages.length} page{run.pages.length === 1 ? "" : "s"}.
      </p>
    );
  }
  return (
    <div data-testid="builder-results">
      <CollectionBox
        keys={keys}
        tableKeys={index === null ? null : table.keys}
        partitionValue={partitionValue}
        pages={run.pages}
        loading={false}
        onLoadMore={() => {}}
        onEdit={onEdit}
        label={`Builder results of ${keys.partitionKey.name}`}
      />
    </div>
  );
}
