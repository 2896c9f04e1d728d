/**
 * The collections a key schema would form, drawn for a few example items: one row of dashed
 * boxes for the table and one for each index (the shared collection-box look), each box headed
 * by its partition-key value with its items in sort-key order, and the items left out of each
 * (refused by PutItem, or not in a sparse index) listed under it.
 */
import type { KeySchema } from "../../ipc/bindings.gen";
import { TypedValue } from "../../shared/TypedValue";
import type { PreviewGroup } from "./preview";

function keyLabel(keys: KeySchema): string {
  const pk = keys.partitionKey.name || "?";
  return keys.sortKey === null ? pk : `${pk} + ${keys.sortKey.name || "?"}`;
}

const KIND: Record<PreviewGroup["kind"], string> = { table: "Table", global: "GSI", local: "LSI" };

/** "Table Trips", "GSI ByDepot"; before it is named, "The table" or "A GSI" (never "Table the table"). */
function heading(group: PreviewGroup): string {
  if (group.name !== "") return `${KIND[group.kind]} ${group.name}`;
  return group.kind === "table" ? "The table (not named yet)" : `A ${KIND[group.kind]} (not named yet)`;
}

export function CollectionPreview({ groups }: { groups: PreviewGroup[] }) {
  return (
    <div className="create-preview" data-testid="create-preview">
      {groups.map((group, at) => (
        <section key={`${at}-${group.name}`} className="preview-group" aria-label={heading(group)} data-testid={`preview-${group.kind}-${group.name}`}>
          <h4>
            {heading(group)}{" "}
            <span className="muted">
              · key {keyLabel(group.keys)}
              {group.unnamedKey === null && ` · ${group.collections.length} collections`}
            </span>
          </h4>
          {group.unnamedKey !== null && (
            <p className="muted" data-testid="preview-unnamed">
              Name the {group.unnamedKey} to see the collections these items would form.
            </p>
          )}
          <div className="preview-boxes">
            {group.collections.map((collection) => {
              const sortName = group.keys.sortKey?.name ?? null;
              const pkName = group.keys.partitionKey.name;
              return (
                <div key={JSON.stringify(collection.partitionValue)} className="collection-box preview-box" data-testid="preview-box">
                  <div className="collection-heading">
                    <span className="collection-pk-name">{pkName}</span>
                    <span className="collection-pk-value">
                      <TypedValue value={collection.partitionValue} />
                    </span>
                    <span className="collection-summary muted">{collection.items.length === 1 ? "1 item" : `${collection.items.length} items`}</span>
                  </div>
                  <ol className="preview-items">
                    {collection.items.map((item, i) => (
                      <li key={i}>
                        {sortName !== null && item[sortName] !== undefined && (
                          <span className="preview-sort">
                            <TypedValue value={item[sortName]} />
                          </span>
                        )}
                        <span className="preview-rest muted">
                          {Object.keys(item)
                            .filter((name) => name !== pkName && name !== sortName)
                            .join(", ") || "(keys only)"}
                        </span>
                      </li>
                    ))}
                  </ol>
                </div>
              );
            })}
            {group.collections.length === 0 && group.unnamedKey === null && <p className="muted">No example item falls in here.</p>}
          </div>
          {group.left.length > 0 && (
            <ul className="preview-left muted">
              {group.left.map((left, i) => (
                <li key={i}>{left.why}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
