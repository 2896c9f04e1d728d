import { useEffect, useState } from "react";
import type { AttributeValueJson, Diagnostic, ExpressionParameter, ExpressionState, KeySchemaState } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";

/** What the user typed: the expression and its two maps (JSON objects). */
export type TypedExpression = { text: string; names: string; values: string };

export type Check =
  | { status: "idle" }
  /** The text has not been parsed yet. */
  | { status: "checking" }
  | { status: "valid" }
  | { status: "invalid"; diagnostics: Diagnostic[] }
  | { status: "malformed"; message: string };

function parseMap<T>(label: string, text: string): { map: { [key in string]: T } | null } | { error: string } {
  if (text.trim() === "") return { map: null };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return { map: parsed as { [key in string]: T } };
  } catch {
    // reported below
  }
  return { error: `${label} is a JSON object.` };
}

/**
 * `settled` parsed by the backend with the engine's parser: valid (its builder state handed to
 * `onParsed`), invalid with DynamoDB's diagnostics, or malformed maps.
 */
export function useExpressionCheck(
  settled: TypedExpression,
  parameter: ExpressionParameter,
  keySchema: KeySchemaState | null,
  onParsed: (state: ExpressionState) => void,
): Check {
  const source = useCommands();
  // What was found, and the text (with its maps) it was found for: a result is shown only while
  // it describes `settled`, so an old "valid" never stands for a newer text.
  const key = JSON.stringify([settled, parameter]);
  const [found, setFound] = useState<{ key: string; check: Check }>({ key: "", check: { status: "idle" } });

  useEffect(() => {
    let live = true;
    const setCheck = (check: Check) => setFound({ key, check });
    const names = parseMap<string>("ExpressionAttributeNames", settled.names);
    const values = parseMap<AttributeValueJson>("ExpressionAttributeValues", settled.values);
    if ("error" in names || "error" in values) {
      setCheck({ status: "malformed", message: "error" in names ? names.error : "error" in values ? values.error : "" });
      return;
    }
    if (settled.text.trim() === "") {
      setCheck({ status: "idle" });
      return;
    }
    source
      .parseExpressions(
        {
          Expressions: [{ parameter, text: settled.text }],
          ExpressionAttributeNames: names.map,
          ExpressionAttributeValues: values.map,
        },
        keySchema,
      )
      .then(
        (outcome) => {
          if (!live) return;
          if (outcome.status === "parsed") {
            setCheck({ status: "valid" });
            const state = outcome.states[0];
            if (state) onParsed(state);
          } else {
            setCheck({ status: "invalid", diagnostics: outcome.diagnostics });
          }
        },
        (err: unknown) => live && setCheck({ status: "malformed", message: String(err) }),
      );
    return () => {
      live = false;
    };
    // onParsed is a callback of the parent; a new one must not parse again. `key` stands for `settled` and `parameter`.
  }, [key, keySchema, source]);
  return found.key === key ? found.check : { status: "checking" };
}
