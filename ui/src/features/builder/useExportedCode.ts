import { useEffect, useState } from "react";
import type { CodeTarget, ReadRequest } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";

/**
 * `request` as a program for `target`, from the backend's exporter, or why it cannot be exported;
 * exported again when the request's content or the target changes (`onExport` runs each time).
 */
export function useExportedCode(request: ReadRequest, target: CodeTarget, onExport: () => void) {
  const source = useCommands();
  const [code, setCode] = useState<{ code: string } | { error: string } | null>(null);
  const key = JSON.stringify(request);

  useEffect(() => {
    let live = true;
    onExport();
    source.exportCode(request, target).then(
      (result) => live && setCode(result.status === "ok" ? { code: result.data } : { error: result.error.message }),
      (err: unknown) => live && setCode({ error: String(err) }),
    );
    return () => {
      live = false;
    };
    // The request is compared by value: a new object with the same content exports the same code.
  }, [key, target, source]);
  return code;
}
