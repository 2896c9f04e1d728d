import { useEffect, useState } from "react";
import type { SortKeyOperator } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";

/** The operators the backend allows on a sort key of type `sortType` (none without a sort key). */
export function useSortKeyOperators(sortType: "S" | "N" | "B" | null): SortKeyOperator[] {
  const source = useCommands();
  const [operators, setOperators] = useState<SortKeyOperator[]>([]);
  useEffect(() => {
    let live = true;
    if (sortType === null) {
      setOperators([]);
      return;
    }
    source.sortKeyOperators(sortType).then(
      (ops) => live && setOperators(ops),
      () => live && setOperators([]),
    );
    return () => {
      live = false;
    };
  }, [source, sortType]);
  return operators;
}
