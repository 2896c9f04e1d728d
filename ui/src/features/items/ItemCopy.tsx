/**
 * "Copy as …" for one item: a choice of form (JSON, DynamoDB JSON, PutItem code) and a button.
 * The text goes through the web clipboard API (the shell's webview allows `writeText` on a user
 * gesture; `CodePanel` copies the same way), passed in so tests can replace it.
 */
import { useState } from "react";
import type { Item } from "../../shared/attributeValue";
import { useFleetingNotice } from "../../shared/useFleetingNotice";
import { COPY_FORMATS, itemAsText, type CopyFormat } from "./itemCopy";

export type TextClipboard = Pick<Clipboard, "writeText">;

export function defaultClipboard(): TextClipboard | undefined {
  return typeof navigator !== "undefined" ? navigator.clipboard : undefined;
}

/** Copies `text`; the sentence to show after. */
export async function copyText(clipboard: TextClipboard | undefined, text: string, what: string): Promise<string> {
  if (clipboard === undefined) return "This window has no clipboard access.";
  try {
    await clipboard.writeText(text);
    return `Copied ${what}.`;
  } catch {
    return "The clipboard refused the copy.";
  }
}

export type ItemCopyProps = {
  table: string;
  item: Item | null;
  clipboard?: TextClipboard | undefined;
};

export function ItemCopy({ table, item, clipboard = defaultClipboard() }: ItemCopyProps) {
  const [format, setFormat] = useState<CopyFormat>("dynamo");
  // What the last copy did, until the next key or click.
  const [said, setSaid] = useFleetingNotice();
  const label = COPY_FORMATS.find((f) => f.format === format)?.label ?? format;
  return (
    <span className="item-copy" role="group" aria-label="Copy the item">
      <select aria-label="Copy as" value={format} onChange={(e) => setFormat(e.target.value as CopyFormat)}>
        {COPY_FORMATS.map((f) => (
          <option key={f.format} value={f.format}>
            {f.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={item === null || clipboard === undefined}
        onClick={async () => {
          if (item === null) return;
          setSaid(await copyText(clipboard, itemAsText(table, item, format), `the item as ${label}`));
        }}
      >
        Copy
      </button>
      <span role="status" className="muted" data-testid="copy-status">
        {said}
      </span>
    </span>
  );
}
