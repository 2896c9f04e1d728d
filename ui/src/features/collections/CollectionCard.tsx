/**
 * The card beside the box a Query read: the collection as the table holds it. Its whole key,
 * items and size, its share of the table with a bar, its rank among the largest collections, and
 * the 10 GB item-collection limit: a gauge on a table with an LSI, otherwise why there is none
 * (rule B.7, docs/dynamodb-rules.md: the limit holds only where an LSI is, and never for a GSI).
 */
import type { AttributeValue, TableDescription } from "../../ipc/bindings.gen";
import { attributeText, byteCountLabel } from "../../shared/attributeValue";
import { formatCount, formatCountOf, formatShare } from "../../shared/format";
import { useCollectionFigures, type CollectionFigures } from "./useCollectionFigures";
import "./CollectionCard.css";

export type CollectionCardProps = {
  profileId: string;
  table: TableDescription;
  /** The index the Query read; null: the table. */
  index: string | null;
  /** The value naming the collection (its partition-key value, or the list of them). */
  value: AttributeValue;
};

/** "the largest", "the 2nd largest", … */
function rankText(rank: number): string {
  if (rank === 1) return "the largest";
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[rank % 10] ?? "th";
  return `the ${formatCount(rank)}${suffix} largest`;
}

export function CollectionCard({ profileId, table, index, value }: CollectionCardProps) {
  const figures = useCollectionFigures(profileId, table, index, value);
  // Not drawn where there is nothing to say: no statistics yet (AWS before a scan), no such collection.
  if (figures === null || figures.status === "error") return null;
  const global = index !== null && table.indexes.find((i) => i.name === index)?.kind === "global";
  const hasLsi = table.indexes.some((i) => i.kind === "local");
  return (
    <aside className="side-card collection-card" aria-label="This collection" data-testid="collection-card">
      <h3>
        Collection <span className="collection-card-key">{attributeText(value)}</span>
      </h3>
      {figures.status === "loading" ? (
        <p className="muted">Reading its statistics…</p>
      ) : (
        <Figures
          figures={figures.data}
          tableName={table.name}
          where={global ? `GSI ${index}` : table.name}
          global={global}
          hasLsi={hasLsi}
        />
      )}
    </aside>
  );
}

function Figures({
  figures,
  tableName,
  where,
  global,
  hasLsi,
}: {
  figures: CollectionFigures;
  tableName: string;
  where: string;
  global: boolean;
  hasLsi: boolean;
}) {
  const { stat, totals, rank } = figures;
  const limit = totals.collectionSizeLimit;
  const limited = limit !== null ? stat.limitedSizeBytes : null;
  const of = totals.distinctPartitionKeys;
  return (
    <>
      <p data-testid="collection-card-size">
        {formatCountOf(stat.itemCount, "item")} · {byteCountLabel(stat.sizeBytes)}
      </p>
      <p className="collection-card-share" data-testid="collection-card-share">
        <span>share of {where}</span>
        <strong>{formatShare(stat.sizeBytes, totals.sizeBytes)}</strong>
        <meter min={0} max={Math.max(1, totals.sizeBytes)} value={stat.sizeBytes} aria-label={`Share of ${where}`} />
      </p>
      {rank !== null && (
        <p className="muted" data-testid="collection-card-rank">
          {rankText(rank)} of {formatCountOf(of, "collection")} by size
        </p>
      )}
      {limited !== null && limit !== null ? (
        <p className="collection-card-limit" data-testid="collection-card-limit">
          <span>
            {byteCountLabel(limited)} of the {byteCountLabel(limit)} item-collection limit ({formatShare(limited, limit)}): the items and their
            LSI entries together
          </span>
          <meter min={0} max={limit} low={limit * 0.5} high={limit * 0.8} optimum={0} value={limited} aria-label="Item-collection size limit" />
        </p>
      ) : (
        <p className="muted" data-testid="collection-card-limit">
          {global
            ? `A GSI's collections have no size limit (the 10 GB limit is an LSI's).`
            : hasLsi
              ? `${tableName}'s item-collection sizes are not known here.`
              : `No LSI on ${tableName}: no 10 GB limit on a collection's size.`}
        </p>
      )}
    </>
  );
}
