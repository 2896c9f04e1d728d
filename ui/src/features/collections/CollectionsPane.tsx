/**
 * The Collections view with the data it reads: `useCollections` lives here, under the table
 * screen, so a box read while the user scrolls renders this view again and nothing around it
 * (the table screen's other views stay mounted while hidden, and rendered again with it when the
 * run's state lived in the table screen).
 */
import { CollectionsView, type CollectionsViewProps } from "./CollectionsView";
import { useCollections } from "./useCollections";
import type { KeySchema } from "../../ipc/bindings.gen";

export type CollectionsPaneProps = Omit<CollectionsViewProps, "data"> & {
  profileId: string;
  /** The index the run is grouped by; `null`: the table. */
  index: string | null;
  /** The key schema of the table or the index, once described. */
  keys: KeySchema | null;
  /** A new number lists the run again from the start. */
  generation: number;
  /** A new number: items of the table were written; what is in sight is read again, in place. */
  written: number;
};

export function CollectionsPane({ profileId, index, keys, generation, written, ...view }: CollectionsPaneProps) {
  const data = useCollections({
    profileId,
    table: view.table.name,
    index,
    keys,
    generation,
    written,
    rowsPerBox: view.rowsPerBox,
  });
  // Regrouped, the run is another run: it opens at its top, with nothing of the last one's
  // scroll position or boxes shown whole (their keys are the other grouping's).
  return <CollectionsView key={index ?? ""} {...view} data={data} />;
}
