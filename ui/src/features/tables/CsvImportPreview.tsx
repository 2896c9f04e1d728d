import type { CsvColumnType, ImportPreview, PreviewColumn } from "../../ipc/bindings.gen";
import { formatCount } from "../../shared/format";

const TYPE_LABEL: Record<CsvColumnType, string> = {
  S: "S (string)",
  N: "N (number)",
  BOOL: "BOOL (true/false)",
  B: "B (binary, base64)",
  JSON: "DynamoDB JSON",
  SKIP: "skip column",
};

/** What a column may be read as: binary only for a binary key's column, whose type is fixed anyway. */
const CHOICES: CsvColumnType[] = ["S", "N", "BOOL", "JSON", "SKIP"];

const SOURCE_LABEL: Record<PreviewColumn["source"], string> = {
  key: "key schema",
  header: "from the header",
  inferred: "inferred",
};

/**
 * A CSV file's first rows as the import will read them: per column the type (the table's key
 * schema's for a key attribute, the header's when it names one, otherwise inferred by the backend
 * from the first rows), which the user can change or skip before estimating and importing; and
 * what the rows read already say about that choice: a cell that does not fit it, a number DynamoDB
 * stores as another text.
 */
export function CsvImportPreview({
  preview,
  types,
  onChange,
  disabled,
}: {
  preview: ImportPreview;
  types: CsvColumnType[];
  onChange: (index: number, type: CsvColumnType) => void;
  disabled: boolean;
}) {
  const typeOf = (i: number): CsvColumnType => types[i] ?? preview.columns[i]?.type ?? "S";
  const notes = preview.columns.flatMap((column, i) => columnNotes(column, typeOf(i)));
  return (
    <section className="csv-preview" aria-label="Columns to import" data-testid="csv-preview">
      <p className="muted">
        Each column's type, from the first {formatCount(preview.rowsRead)} {preview.rowsRead === 1 ? "row" : "rows"} of the file
        {preview.moreRows ? " (the import checks every row of the file before it writes any)" : ""}: change it before estimating the import. An empty
        cell leaves the attribute out of that item, whatever the column's type.
      </p>
      {preview.missingKeys.length > 0 && (
        <p className="status-error" role="alert" data-testid="csv-missing-keys">
          No column of this file is the table's key attribute {preview.missingKeys.join(" or ")}: every row would be refused.
        </p>
      )}
      <div className="csv-preview-scroll">
        <table>
          <thead>
            <tr>
              {preview.columns.map((column, i) => (
                <th key={i} scope="col">
                  {column.name}
                  {column.tableKey && <span className="muted"> (key)</span>}
                </th>
              ))}
            </tr>
            <tr>
              {preview.columns.map((column, i) => (
                <td key={i}>
                  <select
                    aria-label={`Type of ${column.name}`}
                    value={typeOf(i)}
                    disabled={disabled || column.source === "key"}
                    title={column.source === "key" ? "The table's key schema sets this attribute's type." : undefined}
                    onChange={(e) => onChange(i, e.target.value as CsvColumnType)}
                  >
                    {(column.source === "key" ? [column.type] : CHOICES).map((type) => (
                      <option key={type} value={type}>
                        {TYPE_LABEL[type]}
                      </option>
                    ))}
                  </select>{" "}
                  <span className="muted" data-testid="csv-type-source">
                    {SOURCE_LABEL[column.source]}
                  </span>
                </td>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, r) => (
              <tr key={r} data-testid="csv-row">
                {row.map((cell, i) => (
                  <td key={i} className={typeOf(i) === "SKIP" ? "muted" : undefined}>
                    {cell === "" ? <em className="muted">absent</em> : cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {notes.length > 0 && (
        <ul className="csv-preview-notes" data-testid="csv-notes">
          {notes.map((note, i) => (
            <li key={i} className={note.error ? "status-error" : "muted"}>
              {note.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What the rows read say about reading `column` as `type`. */
function columnNotes(column: PreviewColumn, type: CsvColumnType): { text: string; error: boolean }[] {
  const notes: { text: string; error: boolean }[] = [];
  const misfit = column.misfits.find((m) => m.type === type);
  if (misfit !== undefined) {
    notes.push({ text: `${column.name}, row ${formatCount(misfit.row)}: ${misfit.message}. Read as ${type}, the import stops there and imports nothing.`, error: true });
  }
  if (type === "N" && column.numberChange !== null) {
    notes.push({
      text: `${column.name}: DynamoDB stores numbers normalised, so ${column.numberChange.cell} is stored as ${column.numberChange.stored}. Read the column as S to keep its text.`,
      error: false,
    });
  }
  return notes;
}
