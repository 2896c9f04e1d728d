import { useEffect, useState } from "react";
import type { SortKeyOperator } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";

type KeyType = "S" | "N" | "B";

/** The sort-key operators the backend allows, for each key type in `types`. */
export function useOperators(types: readonly KeyType[]): Partial<Record<KeyType, SortKeyOperator[]>> {
  const source = useCommands();
  const [operators, setOperators] = useState<Partial<Record<KeyType, SortKeyOperator[]>>>({});
  const wanted = [...new Set(types)].sort().join(",");
  useEffect(() => {
    let live = true;
    const list = wanted === "" ? [] : (wanted.split(",") as KeyType[]);
    for (const type of list) {
      source.sortKeyOperators(type).then(
        (ops) => live && setOperators((o) => ({ ...o, [type]: ops })),
        () => live && setOperators((o) => ({ ...o, [type]: [] })),
      );
    }
    return () => {
      live = false;
    };
  }, [source, wanted]);
  return operators;
}
