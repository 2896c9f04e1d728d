import { useEffect, useState } from "react";
import type { ExpressionState, GeneratedExpression } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";

/** The expression the backend generates from `state` (with its names and values), or why it cannot. */
export function useGeneratedExpression(state: ExpressionState) {
  const source = useCommands();
  const [generated, setGenerated] = useState<GeneratedExpression | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    source.generateExpression(state).then(
      (result) => {
        if (!live) return;
        if (result.status === "ok") {
          setGenerated(result.data);
          setProblem(null);
        } else {
          setGenerated(null);
          setProblem(result.error.message);
        }
      },
      (err: unknown) => live && setProblem(String(err)),
    );
    return () => {
      live = false;
    };
  }, [state, source]);
  return { generated, problem };
}
