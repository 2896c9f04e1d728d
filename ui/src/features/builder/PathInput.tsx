import { useEffect, useId, useState } from "react";
import type { AttributePath } from "../../ipc/bindings.gen";
import { formatPath, parsePath } from "./model";

/**
 * A document path typed as `name.child[0]`, with the attribute names of the table suggested
 * (a datalist, so the browser's own keyboard-accessible suggestion list is used).
 */
export function PathInput({
  label,
  path,
  onChange,
  suggestions,
}: {
  label: string;
  path: AttributePath;
  onChange: (path: AttributePath) => void;
  suggestions: readonly string[];
}) {
  const listId = useId();
  const [text, setText] = useState(formatPath(path));
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (JSON.stringify(parsePath(text)) !== JSON.stringify(path)) {
      setText(formatPath(path));
      setInvalid(false);
    }
  }, [JSON.stringify(path)]);

  return (
    <>
      <input
        className="path-input"
        aria-label={label}
        aria-invalid={invalid}
        list={listId}
        value={text}
        placeholder="attribute.path[0]"
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parsePath(e.target.value);
          setInvalid(parsed === null);
          if (parsed) onChange(parsed);
        }}
      />
      <datalist id={listId}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}
