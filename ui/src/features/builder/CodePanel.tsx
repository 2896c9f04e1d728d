import { useState } from "react";
import type { CodeTarget, ReadRequest } from "../../ipc/bindings.gen";
import { useExportedCode } from "./useExportedCode";
import "./CodePanel.css";
import { useTabList } from "../../shared/useTabList";

/** Every export target, with the name its tab shows. */
export const CODE_TARGETS: { target: CodeTarget; label: string }[] = [
  { target: "awsCli", label: "AWS CLI" },
  { target: "javaScriptClient", label: "JS client" },
  { target: "javaScriptDocumentClient", label: "JS DocumentClient" },
  { target: "pythonClient", label: "boto3 client" },
  { target: "pythonResource", label: "boto3 resource" },
  { target: "rust", label: "Rust" },
  { target: "go", label: "Go" },
  { target: "java", label: "Java" },
];

type Clipboard = Pick<globalThis.Clipboard, "writeText">;

/**
 * The request as a program that pages through every result, one tab per SDK, with a Copy button.
 * The code comes from the backend's exporter (`exportCode`).
 */
export function CodePanel({
  request,
  clipboard = typeof navigator !== "undefined" ? navigator.clipboard : undefined,
}: {
  request: ReadRequest;
  clipboard?: Clipboard | undefined;
}) {
  const [target, setTarget] = useState<CodeTarget>("awsCli");
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const code = useExportedCode(request, target, () => setCopied(null));

  const tabs = useTabList(
    CODE_TARGETS.map((t) => t.target),
    target,
    setTarget,
  );
  const copy = async () => {
    if (!code || !("code" in code) || !clipboard) return;
    try {
      await clipboard.writeText(code.code);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <section className="code-panel" aria-label="Code">
      <div role="tablist" aria-label="Language" className="code-tabs">
        {CODE_TARGETS.map((t) => (
          <button key={t.target} type="button" {...tabs.tabProps(t.target)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="code-body">
        {code === null ? (
          <p className="builder-hint">Generating…</p>
        ) : "error" in code ? (
          <p className="expression-error">{code.error}</p>
        ) : (
          <>
            <button type="button" className="copy-button" onClick={copy} disabled={!clipboard}>
              Copy
            </button>
            <span className="copy-status" role="status">
              {copied === "copied" ? "Copied" : copied === "failed" ? "The clipboard refused the copy" : ""}
            </span>
            <pre className="code" data-testid="code">
              {code.code}
            </pre>
          </>
        )}
      </div>
    </section>
  );
}
