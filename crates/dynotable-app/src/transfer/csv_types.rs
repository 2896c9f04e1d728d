//! The types of a CSV import's columns, decided in one place: here.
//!
//! A CSV file holds text; DynamoDB wants typed values. The life of a CSV import:
//!
//! 1. The user picks a file. `preview_import_file` ([`preview`]) reads its header and its first
//!    [`INFER_ROWS`] rows (never more, whatever the file's size) and gives each column a type:
//!    - a key attribute of the table or of one of its indexes takes the type of its attribute
//!      definition, as DynamoDB's own import from S3 does (rule B.23, docs/dynamodb-rules.md);
//!    - a header that names a type (`Age (N)`, what DynoTable's CSV export writes) gives that type;
//!    - otherwise the type is inferred from the cells: N when every non-empty cell is a DynamoDB
//!      number (rule B.7: at most 38 significant digits, within range; read exactly, never through
//!      a double), BOOL when every one is `true` or `false` (in any case), DynamoDB JSON when a
//!      cell is (`{"SS":["a"]}`: how the export writes a column of mixed or complex types; a broken
//!      cell beside it is then an error, not a reason to read the column as strings), S otherwise. The preview also says, per type, the first of those rows that
//!      would not fit it, so the panel can warn before the user picks it.
//! 2. The panel shows the first rows and the types; the user may change a column's type or skip it.
//! 3. `estimate_import_file` and `import_items` take the chosen types ([`CsvColumnChoice`], one
//!    per column, in file order, each naming the header cell it was chosen for) and read every
//!    cell of the file with [`cell_value`]: a cell that does not fit its column's type stops the
//!    import before anything is written, with the row, the column and why. Without choices, an
//!    import uses what the preview would have chosen.
//!
//! An empty cell is an absent attribute, whatever the column's type: items are sparse, and a CSV
//! row has a cell for every column.

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::dto::{AttributeValue, ScalarType, TableDescription};

/// Rows a preview reads to infer the columns' types.
pub const INFER_ROWS: usize = 1000;
/// Rows a preview gives back to be shown.
pub const SAMPLE_ROWS: usize = 10;

/// What the cells of a CSV column are read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "UPPERCASE")]
pub enum CsvColumnType {
    /// Strings, the cell's text as it is.
    S,
    /// Numbers, the cell's text as it is (DynamoDB stores it normalised, rule B.9).
    N,
    /// `true` or `false`, in any case (`TRUE`, as spreadsheets write it).
    Bool,
    /// Binary, written as base64 (only a binary key attribute's column has this type).
    B,
    /// A cell that starts with `{` is DynamoDB JSON (`{"SS":["a","b"]}`); any other is a string.
    Json,
    /// The column is not imported.
    Skip,
}

impl CsvColumnType {
    /// The suffix a CSV header gives a column of this type (`Age (N)`): the scalar types only.
    pub fn header_suffix(self) -> Option<&'static str> {
        match self {
            CsvColumnType::S => Some(" (S)"),
            CsvColumnType::N => Some(" (N)"),
            CsvColumnType::Bool => Some(" (BOOL)"),
            CsvColumnType::B | CsvColumnType::Json | CsvColumnType::Skip => None,
        }
    }

    fn of_key(ty: ScalarType) -> CsvColumnType {
        match ty {
            ScalarType::S => CsvColumnType::S,
            ScalarType::N => CsvColumnType::N,
            ScalarType::B => CsvColumnType::B,
        }
    }
}

/// A header cell split into the attribute name and the type it names, if it names one.
pub fn header_cell(cell: &str) -> (&str, Option<CsvColumnType>) {
    for ty in [CsvColumnType::S, CsvColumnType::N, CsvColumnType::Bool] {
        if let Some(name) = ty.header_suffix().and_then(|suffix| cell.strip_suffix(suffix)) {
            return (name, Some(ty));
        }
    }
    (cell, None)
}

/// The value of one cell read as `ty`: `None` for an empty cell (an absent attribute) or a skipped
/// column; an error saying why when the cell does not fit the type.
pub fn cell_value(cell: &str, ty: CsvColumnType) -> Result<Option<AttributeValue>, String> {
    if cell.is_empty() || ty == CsvColumnType::Skip {
        return Ok(None);
    }
    let value = match ty {
        CsvColumnType::S => AttributeValue::S(cell.to_owned()),
        // Checked by the engine's own reading of numbers (rule B.7), and kept as the file spells
        // it: DynamoDB normalises it on storage (rule B.9), no double ever rounds it.
        CsvColumnType::N => match dynotable_types::Number::parse(cell) {
            Ok(_) => AttributeValue::N(cell.to_owned()),
            Err(err) => {
                return Err(format!(
                    "{cell:?} is not a DynamoDB number ({})",
                    number_problem(&err)
                ));
            }
        },
        CsvColumnType::Bool => match cell.to_ascii_lowercase().as_str() {
            "true" => AttributeValue::BOOL(true),
            "false" => AttributeValue::BOOL(false),
            _ => return Err(format!("{cell:?} is not true or false")),
        },
        CsvColumnType::B => match STANDARD.decode(cell) {
            Ok(_) => AttributeValue::B(cell.to_owned()),
            Err(err) => return Err(format!("{cell:?} is not base64 ({err})")),
        },
        CsvColumnType::Json if cell.starts_with('{') => {
            let value: AttributeValue =
                serde_json::from_str(cell).map_err(|err| format!("not DynamoDB JSON: {err}"))?;
            value
                .to_engine()
                .map_err(|err| format!("not DynamoDB JSON: {err}"))?;
            value
        }
        CsvColumnType::Json => AttributeValue::S(cell.to_owned()),
        CsvColumnType::Skip => return Ok(None),
    };
    Ok(Some(value))
}

/// Why a text is not a DynamoDB number, in words (the limits of rule B.7).
fn number_problem(err: &dynotable_types::ValidationError) -> &'static str {
    use dynotable_types::ValidationError as E;
    match err {
        E::TooManyDigits => "more than 38 significant digits",
        E::NumberOverflow => "larger than 9.9999999999999999999999999999999999999E+125",
        E::NumberUnderflow => "closer to 0 than 1E-130",
        _ => "not a decimal number",
    }
}

/// The type a column's cells are read as, chosen for the header cell it names: what
/// `import_items` and `estimate_import_file` take, one per column in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CsvColumnChoice {
    /// The header cell, as the file spells it (`Age`, `Age (N)`).
    pub header: String,
    #[serde(rename = "type")]
    pub ty: CsvColumnType,
}

/// What the first rows of a CSV file hold, and the type each column will be imported as.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportPreview {
    /// The columns, in file order.
    pub columns: Vec<PreviewColumn>,
    /// The first rows (at most [`SAMPLE_ROWS`]), each cell as the file spells it.
    pub rows: Vec<Vec<String>>,
    /// The rows the types were inferred from (at most [`INFER_ROWS`]).
    pub rows_read: u32,
    /// The file has rows past those read: the import checks them too, before it writes any.
    pub more_rows: bool,
    /// Key attributes of the table that no column names: every row would be refused.
    pub missing_keys: Vec<String>,
}

/// Where a column's type comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum TypeSource {
    /// The attribute is a key of the table or of an index: its attribute definition's type.
    Key,
    /// The header names it (`Age (N)`).
    Header,
    /// Inferred from the cells of the rows read.
    Inferred,
}

/// One column of a preview.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PreviewColumn {
    /// The header cell, as the file spells it: what a [`CsvColumnChoice`] names.
    pub header: String,
    /// The attribute the column writes.
    pub name: String,
    /// The type the import reads the column as unless the user picks another.
    #[serde(rename = "type")]
    pub ty: CsvColumnType,
    pub source: TypeSource,
    /// The column is one of the table's own key attributes (every row needs it).
    pub table_key: bool,
    /// Empty cells in the rows read: each an item without this attribute.
    pub empty_cells: u32,
    /// Per type, the first of the rows read whose cell does not fit it (none for S and skip).
    pub misfits: Vec<ColumnMisfit>,
    /// The first cell of the rows read that DynamoDB would store as another text if read as a
    /// number (`007` is stored as `7`, rule B.9).
    pub number_change: Option<NumberChange>,
}

/// A cell that does not fit a type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ColumnMisfit {
    #[serde(rename = "type")]
    pub ty: CsvColumnType,
    /// The row, 1 for the first below the header.
    pub row: u32,
    pub message: String,
}

/// A number as the file spells it and as DynamoDB stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NumberChange {
    pub cell: String,
    pub stored: String,
}

/// The key attributes of a table: the type of each (the table's and its indexes', from the
/// attribute definitions) and which of them the table's own key needs in every item.
#[derive(Debug, Clone, Default)]
pub struct KeyTypes {
    types: BTreeMap<String, ScalarType>,
    table_keys: Vec<String>,
}

impl KeyTypes {
    pub fn of(description: &TableDescription) -> KeyTypes {
        KeyTypes {
            types: description
                .attribute_definitions
                .iter()
                .map(|a| (a.name.clone(), a.ty))
                .collect(),
            table_keys: description
                .keys
                .partition_keys()
                .chain(description.keys.sort_keys())
                .map(|k| k.name.clone())
                .collect(),
        }
    }
}

/// The types whose misfits a preview reports (S and skip fit every cell).
const CHECKED_TYPES: [CsvColumnType; 4] = [
    CsvColumnType::N,
    CsvColumnType::Bool,
    CsvColumnType::B,
    CsvColumnType::Json,
];

/// What the rows read say about one column.
#[derive(Default)]
struct Observed {
    empty: u32,
    filled: u32,
    /// Cells that start with `{` and are DynamoDB JSON.
    json: u32,
    misfits: Vec<ColumnMisfit>,
    number_change: Option<NumberChange>,
}

impl Observed {
    fn take(&mut self, row: u32, cell: &str) {
        if cell.is_empty() {
            self.empty += 1;
            return;
        }
        self.filled += 1;
        if cell.starts_with('{') && cell_value(cell, CsvColumnType::Json).is_ok() {
            self.json += 1;
        }
        for ty in CHECKED_TYPES {
            if self.misfits.iter().any(|m| m.ty == ty) {
                continue;
            }
            if let Err(message) = cell_value(cell, ty) {
                self.misfits.push(ColumnMisfit { ty, row, message });
            }
        }
        if self.number_change.is_none()
            && let Ok(number) = dynotable_types::Number::parse(cell)
            && number.to_string() != cell
        {
            self.number_change = Some(NumberChange {
                cell: cell.to_owned(),
                stored: number.to_string(),
            });
        }
    }

    fn fits(&self, ty: CsvColumnType) -> bool {
        !self.misfits.iter().any(|m| m.ty == ty)
    }

    /// The type the cells suggest: see the module documentation.
    fn inferred(&self) -> CsvColumnType {
        if self.filled == 0 {
            CsvColumnType::S
        } else if self.fits(CsvColumnType::N) {
            CsvColumnType::N
        } else if self.fits(CsvColumnType::Bool) {
            CsvColumnType::Bool
        } else if self.json > 0 {
            CsvColumnType::Json
        } else {
            CsvColumnType::S
        }
    }
}

/// A CSV reader of `reader` as every import reads CSV: the first record is the header.
pub fn csv_reader<R: std::io::Read>(reader: R) -> csv::Reader<R> {
    csv::Reader::from_reader(reader)
}

/// Where a record starts, for messages: the row (1 for the first below the header) and the line
/// of the file (a quoted cell may hold line breaks, so they can differ).
pub fn row_place(row: u64, record: Option<&csv::Position>) -> String {
    match record {
        Some(position) if position.line() != row + 1 => format!("row {row} (line {})", position.line()),
        _ => format!("row {row}"),
    }
}

/// The header and the first [`INFER_ROWS`] rows of CSV read from `reader`, each column typed as
/// the module documentation says.
pub fn preview<R: std::io::Read>(reader: R, keys: &KeyTypes) -> Result<ImportPreview, String> {
    let mut reader = csv_reader(reader);
    let header = reader
        .headers()
        .map_err(|err| format!("the CSV header cannot be read: {err}"))?
        .clone();
    let mut observed: Vec<Observed> = header.iter().map(|_| Observed::default()).collect();
    let mut rows = Vec::new();
    let mut read = 0u32;
    let mut more_rows = false;
    for record in reader.into_records() {
        if read as usize == INFER_ROWS {
            more_rows = true;
            break;
        }
        read += 1;
        let record =
            record.map_err(|err| format!("{}: {err}", row_place(u64::from(read), err.position())))?;
        for (column, cell) in observed.iter_mut().zip(record.iter()) {
            column.take(read, cell);
        }
        if rows.len() < SAMPLE_ROWS {
            rows.push(record.iter().map(str::to_owned).collect());
        }
    }
    let columns: Vec<PreviewColumn> = header
        .iter()
        .zip(observed)
        .map(|(cell, observed)| {
            let (name, declared) = header_cell(cell);
            let (ty, source) = match (keys.types.get(name), declared) {
                (Some(key), _) => (CsvColumnType::of_key(*key), TypeSource::Key),
                (None, Some(declared)) => (declared, TypeSource::Header),
                (None, None) => (observed.inferred(), TypeSource::Inferred),
            };
            PreviewColumn {
                header: cell.to_owned(),
                name: name.to_owned(),
                ty,
                source,
                table_key: keys.table_keys.iter().any(|k| k == name),
                empty_cells: observed.empty,
                misfits: observed.misfits,
                number_change: observed.number_change,
            }
        })
        .collect();
    let missing_keys = keys
        .table_keys
        .iter()
        .filter(|key| !columns.iter().any(|c| &c.name == *key))
        .cloned()
        .collect();
    Ok(ImportPreview {
        columns,
        rows,
        rows_read: read,
        more_rows,
        missing_keys,
    })
}

impl ImportPreview {
    /// The types the preview chose, as an import takes them.
    pub fn choices(&self) -> Vec<CsvColumnChoice> {
        self.columns
            .iter()
            .map(|c| CsvColumnChoice {
                header: c.header.clone(),
                ty: c.ty,
            })
            .collect()
    }
}

/// The columns of a CSV file whose header is `header`, read as `choices` say: each column's
/// attribute name and type. The choices must name the header's cells, in order (a file changed
/// since its preview is refused, not read with the types of another column), and two columns
/// that are imported cannot write one attribute.
pub fn chosen_columns(
    header: &csv::StringRecord,
    choices: &[CsvColumnChoice],
) -> Result<Vec<(String, CsvColumnType)>, String> {
    let cells: Vec<&str> = header.iter().collect();
    let chosen: Vec<&str> = choices.iter().map(|c| c.header.as_str()).collect();
    if cells != chosen {
        return Err(format!(
            "its columns ({}) are not the ones the types were chosen for ({}): choose the file again",
            cells.join(", "),
            chosen.join(", ")
        ));
    }
    let mut written: HashMap<&str, &str> = HashMap::new();
    for choice in choices.iter().filter(|c| c.ty != CsvColumnType::Skip) {
        let (name, _) = header_cell(&choice.header);
        if let Some(first) = written.insert(name, &choice.header) {
            return Err(format!(
                "the columns {first} and {} both write the attribute {name}: skip one of them",
                choice.header
            ));
        }
    }
    Ok(choices
        .iter()
        .map(|c| (header_cell(&c.header).0.to_owned(), c.ty))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::{KeyAttribute, KeySchema};

    fn keys(table: &[(&str, ScalarType)], indexes: &[(&str, ScalarType)]) -> KeyTypes {
        KeyTypes {
            types: table
                .iter()
                .chain(indexes)
                .map(|(n, t)| ((*n).to_owned(), *t))
                .collect(),
            table_keys: table.iter().map(|(n, _)| (*n).to_owned()).collect(),
        }
    }

    fn column<'a>(preview: &'a ImportPreview, name: &str) -> &'a PreviewColumn {
        preview.columns.iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn a_plain_column_of_numbers_is_n_of_booleans_bool_and_of_anything_else_s() {
        let text = "Name,Age,Weight,Vaccinated,Notes,Blank\n\
                    Fido,7,12.5,true,good dog,\n\
                    Rover,,-3E2,FALSE,7,\n\
                    Spot,11,0.0000001,false,,\n";
        let preview = preview(text.as_bytes(), &KeyTypes::default()).unwrap();
        let types: Vec<_> = preview.columns.iter().map(|c| (c.name.as_str(), c.ty)).collect();
        assert_eq!(
            types,
            [
                ("Name", CsvColumnType::S),
                ("Age", CsvColumnType::N),
                ("Weight", CsvColumnType::N),
                ("Vaccinated", CsvColumnType::Bool),
                ("Notes", CsvColumnType::S),
                ("Blank", CsvColumnType::S),
            ]
        );
        assert!(preview.columns.iter().all(|c| c.source == TypeSource::Inferred));
        assert_eq!(column(&preview, "Age").empty_cells, 1);
        assert_eq!(column(&preview, "Blank").empty_cells, 3);
        assert_eq!(preview.rows_read, 3);
        assert!(!preview.more_rows);
        assert_eq!(preview.rows[1], ["Rover", "", "-3E2", "FALSE", "7", ""]);
    }

    #[test]
    fn a_number_is_n_only_when_dynamodb_takes_it_exactly() {
        // 38 significant digits are a number; 39 are not, nor is anything a double would round.
        for (cell, number) in [
            ("12345678901234567890123456789012345678", true),
            ("123456789012345678901234567890123456789", false),
            ("-0.00000000000000000000000000000000000123", true),
            ("1E126", false),
            ("1E-131", false),
            ("NaN", false),
            ("Infinity", false),
            ("0x10", false),
            (" 5", false),
            ("1_000", false),
            ("+5", true),
            (".5", true),
        ] {
            let text = format!("v\n{cell}\n");
            let preview = preview(text.as_bytes(), &KeyTypes::default()).unwrap();
            let ty = preview.columns[0].ty;
            assert_eq!(ty == CsvColumnType::N, number, "{cell}: {ty:?}");
        }
        // The number's text is kept as it is, every digit.
        assert_eq!(
            cell_value("12345678901234567890123456789012345678", CsvColumnType::N).unwrap(),
            Some(AttributeValue::N("12345678901234567890123456789012345678".into()))
        );
    }

    #[test]
    fn a_key_column_takes_its_type_from_the_key_schema_and_a_typed_header_its_own() {
        let text = "id,sk (S),gsiKey,Age (N),Code\n42,a,7,3,\"00501\"\n";
        let keys = keys(
            &[("id", ScalarType::N), ("sk", ScalarType::S)],
            &[("gsiKey", ScalarType::S)],
        );
        let preview = preview(text.as_bytes(), &keys).unwrap();
        let got: Vec<_> = preview
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.ty, c.source, c.table_key))
            .collect();
        assert_eq!(
            got,
            [
                ("id", CsvColumnType::N, TypeSource::Key, true),
                ("sk", CsvColumnType::S, TypeSource::Key, true),
                // An index key: typed by its definition (7 stays a string), not needed in every row.
                ("gsiKey", CsvColumnType::S, TypeSource::Key, false),
                ("Age", CsvColumnType::N, TypeSource::Header, false),
                ("Code", CsvColumnType::N, TypeSource::Inferred, false),
            ]
        );
        assert!(preview.missing_keys.is_empty());
        // What a number column would do to a zip code is said.
        assert_eq!(
            column(&preview, "Code").number_change,
            Some(NumberChange {
                cell: "00501".into(),
                stored: "501".into()
            })
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_column_name() {
        // Spreadsheets save "CSV UTF-8" with a byte order mark before the header.
        let keys = keys(&[("id", ScalarType::N)], &[]);
        let preview = preview("\u{feff}id,n\n1,2\n".as_bytes(), &keys).unwrap();
        assert_eq!(preview.columns[0].name, "id");
        assert_eq!(preview.columns[0].source, TypeSource::Key);
        assert!(preview.missing_keys.is_empty());
    }

    #[test]
    fn a_missing_table_key_is_reported() {
        let keys = keys(&[("id", ScalarType::S), ("sk", ScalarType::N)], &[]);
        let preview = preview("id,other\na,b\n".as_bytes(), &keys).unwrap();
        assert_eq!(preview.missing_keys, ["sk"]);
    }

    #[test]
    fn misfits_name_the_first_row_that_does_not_fit_each_type() {
        let preview = preview("v\n1\n2\nabc\ntrue\n".as_bytes(), &KeyTypes::default()).unwrap();
        let v = &preview.columns[0];
        assert_eq!(v.ty, CsvColumnType::S);
        let misfit = |ty| v.misfits.iter().find(|m| m.ty == ty).cloned();
        assert_eq!(
            misfit(CsvColumnType::N),
            Some(ColumnMisfit {
                ty: CsvColumnType::N,
                row: 3,
                message: "\"abc\" is not a DynamoDB number (not a decimal number)".into()
            })
        );
        assert_eq!(misfit(CsvColumnType::Bool).unwrap().row, 1);
        assert_eq!(misfit(CsvColumnType::Json), None, "no cell starts with {{");
    }

    #[test]
    fn a_column_of_dynamodb_json_as_the_export_writes_it_is_json() {
        let text = "tags,json,mixed\n\"{\"\"SS\"\":[\"\"a\"\"]}\",\"{\"\"a\"\":1}\",\"{\"\"N\"\":\"\"1\"\"}\"\n,,{oops\n";
        let preview = preview(text.as_bytes(), &KeyTypes::default()).unwrap();
        assert_eq!(preview.columns[0].ty, CsvColumnType::Json);
        // Plain JSON is not DynamoDB JSON: a string.
        assert_eq!(preview.columns[1].ty, CsvColumnType::S);
        // One good cell makes the column DynamoDB JSON; the broken one is its misfit.
        assert_eq!(preview.columns[2].ty, CsvColumnType::Json);
        let misfit = preview.columns[2]
            .misfits
            .iter()
            .find(|m| m.ty == CsvColumnType::Json)
            .unwrap();
        assert_eq!(misfit.row, 2);
    }

    #[test]
    fn a_preview_reads_only_the_first_rows() {
        let mut text = String::from("n\n");
        for i in 0..INFER_ROWS {
            text.push_str(&format!("{i}\n"));
        }
        // A row past those read would make the column a string: it is not read.
        text.push_str("not a number\n");
        let preview = preview(text.as_bytes(), &KeyTypes::default()).unwrap();
        assert_eq!(preview.rows_read as usize, INFER_ROWS);
        assert!(preview.more_rows);
        assert_eq!(preview.rows.len(), SAMPLE_ROWS);
        assert_eq!(preview.columns[0].ty, CsvColumnType::N);
    }

    #[test]
    fn a_bad_record_in_the_rows_read_is_named_by_its_row() {
        let err = preview("a,b\n1,2\n3\n".as_bytes(), &KeyTypes::default()).unwrap_err();
        assert!(err.starts_with("row 2: "), "{err}");
    }

    #[test]
    fn cells_read_as_each_type() {
        use CsvColumnType as T;
        assert_eq!(cell_value("", T::N).unwrap(), None, "empty: absent");
        assert_eq!(cell_value("7", T::Skip).unwrap(), None);
        assert_eq!(
            cell_value("7", T::S).unwrap(),
            Some(AttributeValue::S("7".into()))
        );
        assert_eq!(
            cell_value("TRUE", T::Bool).unwrap(),
            Some(AttributeValue::BOOL(true))
        );
        assert_eq!(
            cell_value("maybe", T::Bool).unwrap_err(),
            "\"maybe\" is not true or false"
        );
        assert_eq!(
            cell_value("AAEC", T::B).unwrap(),
            Some(AttributeValue::B("AAEC".into()))
        );
        assert!(cell_value("!!", T::B).unwrap_err().contains("is not base64"));
        assert_eq!(
            cell_value(r#"{"NS":["1","2"]}"#, T::Json).unwrap(),
            Some(AttributeValue::NS(vec!["1".into(), "2".into()]))
        );
        assert_eq!(
            cell_value("plain", T::Json).unwrap(),
            Some(AttributeValue::S("plain".into()))
        );
        assert!(
            cell_value("{broken", T::Json)
                .unwrap_err()
                .starts_with("not DynamoDB JSON")
        );
        assert!(
            cell_value(r#"{"N":"abc"}"#, T::Json)
                .unwrap_err()
                .starts_with("not DynamoDB JSON"),
            "its number is checked too"
        );
        assert_eq!(
            cell_value("1234567890123456789012345678901234567890", T::N).unwrap_err(),
            "\"1234567890123456789012345678901234567890\" is not a DynamoDB number (more than 38 significant digits)"
        );
    }

    #[test]
    fn choices_must_name_the_header_in_order_and_not_write_one_attribute_twice() {
        let header = csv::StringRecord::from(vec!["id", "Age", "Age (N)"]);
        let choice = |header: &str, ty| CsvColumnChoice {
            header: header.into(),
            ty,
        };
        let err = chosen_columns(&header, &[choice("id", CsvColumnType::S)]).unwrap_err();
        assert!(
            err.contains("are not the ones the types were chosen for"),
            "{err}"
        );
        let all = [
            choice("id", CsvColumnType::S),
            choice("Age", CsvColumnType::N),
            choice("Age (N)", CsvColumnType::N),
        ];
        let err = chosen_columns(&header, &all).unwrap_err();
        assert_eq!(
            err,
            "the columns Age and Age (N) both write the attribute Age: skip one of them"
        );
        let mut skipped = all.clone();
        skipped[1].ty = CsvColumnType::Skip;
        assert_eq!(
            chosen_columns(&header, &skipped).unwrap(),
            [
                ("id".to_owned(), CsvColumnType::S),
                ("Age".to_owned(), CsvColumnType::Skip),
                ("Age".to_owned(), CsvColumnType::N),
            ]
        );
    }

    #[test]
    fn key_types_come_from_the_attribute_definitions() {
        let key = |name: &str, ty| KeyAttribute {
            name: name.into(),
            ty,
        };
        let schema = KeySchema {
            partition_key: key("pk", ScalarType::N),
            sort_key: None,
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        };
        let description = TableDescription {
            name: "T".into(),
            status: "ACTIVE".into(),
            keys: schema,
            attribute_definitions: vec![key("pk", ScalarType::N), key("g", ScalarType::B)],
            billing_mode: "PAY_PER_REQUEST".into(),
            provisioned: None,
            item_count: 0.0,
            size_bytes: 0.0,
            indexes: Vec::new(),
            stream_view_type: None,
            ttl_attribute: None,
            created_at: None,
            arn: None,
        };
        let keys = KeyTypes::of(&description);
        let preview = preview("pk,g\n1,AAEC\n".as_bytes(), &keys).unwrap();
        assert_eq!(preview.columns[0].ty, CsvColumnType::N);
        assert!(preview.columns[0].table_key);
        assert_eq!(preview.columns[1].ty, CsvColumnType::B);
        assert!(!preview.columns[1].table_key);
    }
}
