//! The file formats of import and export, one item per record:
//!
//! - **JSON lines** — one plain JSON object per line (`{"vehicleId":"VEH#V-7741","speedKph":42}`),
//!   what most tools read. Lossy by nature: a set becomes an array, binary becomes base64 text,
//!   and on import an array becomes a list. Numbers are exact both ways: written as DynamoDB's
//!   decimal text, and read back as the text the file spells them with (never through a double).
//! - **DynamoDB JSON** — one `{"Item":{…}}` per line, each value typed (`{"S":"…"}`), the layout of
//!   DynamoDB's own export to S3. Lossless.
//! - **CSV** — a header of attribute names, one row per item. A column whose values all have one
//!   of the types S, N or BOOL says so in its header (`speedKph (N)`) and holds plain text; any
//!   other column holds DynamoDB JSON. An empty cell is an absent attribute (items are sparse).
//!   Lossless for every type. On import, a column whose header names no type (a CSV from another
//!   tool) is typed by the table's key schema, or inferred from its first rows, or chosen by the
//!   user ([`super::csv_types`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::csv_types::{self, CsvColumnChoice, CsvColumnType};
use crate::dto::{AttributeValue, Item};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum FileFormat {
    JsonLines,
    DynamodbJson,
    Csv,
}

/// An item as one line of plain JSON (no newline).
pub fn plain_json_line(item: &Item) -> String {
    let mut out = String::new();
    write_plain_map(item, &mut out);
    out
}

fn write_plain_map(map: &BTreeMap<String, AttributeValue>, out: &mut String) {
    out.push('{');
    for (i, (name, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::Value::String(name.clone()).to_string());
        out.push(':');
        write_plain(value, out);
    }
    out.push('}');
}

fn write_plain(value: &AttributeValue, out: &mut String) {
    let string = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    match value {
        AttributeValue::S(s) | AttributeValue::B(s) => out.push_str(&string(s)),
        // DynamoDB numbers are decimal text already: written as they are, every digit kept.
        AttributeValue::N(n) => out.push_str(n),
        AttributeValue::BOOL(b) => out.push_str(if *b { "true" } else { "false" }),
        AttributeValue::NULL(_) => out.push_str("null"),
        AttributeValue::SS(v) | AttributeValue::BS(v) => {
            out.push('[');
            out.push_str(&v.iter().map(|s| string(s)).collect::<Vec<_>>().join(","));
            out.push(']');
        }
        AttributeValue::NS(v) => {
            out.push('[');
            out.push_str(&v.join(","));
            out.push(']');
        }
        AttributeValue::L(list) => {
            out.push('[');
            for (i, v) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_plain(v, out);
            }
            out.push(']');
        }
        AttributeValue::M(map) => write_plain_map(map, out),
    }
}

/// An item from one line of plain JSON. Numbers are taken as the text the line spells them with,
/// so every digit is kept (DynamoDB numbers have up to 38 significant digits; a double has 15–17).
pub fn item_from_plain_json(line: &str) -> Result<Item, String> {
    let object: BTreeMap<String, &RawValue> = serde_json::from_str(line).map_err(|err| {
        if line.trim_start().starts_with('{') {
            err.to_string()
        } else {
            "a line is not a JSON object".to_owned()
        }
    })?;
    object
        .into_iter()
        .map(|(name, raw)| Ok((name, from_plain(raw)?)))
        .collect()
}

/// One plain JSON value, by its first character: objects and arrays recursively, numbers as the
/// text they are written with.
fn from_plain(raw: &RawValue) -> Result<AttributeValue, String> {
    let text = raw.get();
    let err = |e: serde_json::Error| e.to_string();
    Ok(match text.as_bytes().first() {
        Some(b'{') => {
            let map: BTreeMap<String, &RawValue> = serde_json::from_str(text).map_err(err)?;
            AttributeValue::M(
                map.into_iter()
                    .map(|(k, v)| Ok((k, from_plain(v)?)))
                    .collect::<Result<_, String>>()?,
            )
        }
        Some(b'[') => {
            let list: Vec<&RawValue> = serde_json::from_str(text).map_err(err)?;
            AttributeValue::L(list.into_iter().map(from_plain).collect::<Result<_, String>>()?)
        }
        Some(b'"') => AttributeValue::S(serde_json::from_str(text).map_err(err)?),
        Some(b't') => AttributeValue::BOOL(true),
        Some(b'f') => AttributeValue::BOOL(false),
        Some(b'n') => AttributeValue::NULL(true),
        // serde_json has checked that this is a JSON number; its text is kept as it is.
        _ => AttributeValue::N(text.to_owned()),
    })
}

/// An item as one line of DynamoDB JSON (`{"Item":{…}}`).
pub fn dynamodb_json_line(item: &Item) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        #[serde(rename = "Item")]
        item: &'a Item,
    }
    serde_json::to_string(&Line { item }).unwrap_or_default()
}

/// An item from one line of DynamoDB JSON, with or without the `{"Item": …}` wrapper.
pub fn item_from_dynamodb_json(line: &str) -> Result<Item, String> {
    #[derive(Deserialize)]
    struct Line {
        #[serde(rename = "Item")]
        item: Item,
    }
    serde_json::from_str::<Line>(line)
        .map(|l| l.item)
        .or_else(|_| serde_json::from_str::<Item>(line))
        .map_err(|err| err.to_string())
}

/// The type a CSV export gives a column: the one scalar type all its values share (S, N or
/// BOOL), or DynamoDB JSON for a column of mixed or other types.
fn export_type(value: &AttributeValue) -> CsvColumnType {
    match value {
        AttributeValue::S(_) => CsvColumnType::S,
        AttributeValue::N(_) => CsvColumnType::N,
        AttributeValue::BOOL(_) => CsvColumnType::Bool,
        _ => CsvColumnType::Json,
    }
}

/// The columns of a CSV export, learnt one item at a time: each attribute name in the order it
/// first appears (the `leading` key attributes first) and the one scalar type all its values
/// share, if they share one. Only the names are kept, not the items, so an export of any size
/// holds one entry per distinct attribute name.
#[derive(Debug, Clone, Default)]
pub struct CsvColumns {
    leading: Vec<String>,
    /// Columns in the order they first appeared, each with its type so far.
    columns: Vec<(String, CsvColumnType)>,
    index: std::collections::HashMap<String, usize>,
}

impl CsvColumns {
    /// Columns that start with `leading` (the key attributes), once an item has them.
    pub fn new(leading: &[String]) -> CsvColumns {
        CsvColumns {
            leading: leading.to_vec(),
            ..CsvColumns::default()
        }
    }

    /// Takes in the attributes of one item.
    pub fn observe(&mut self, item: &Item) {
        for (name, value) in item {
            let ty = export_type(value);
            match self.index.get(name) {
                Some(&at) => {
                    let seen = &mut self.columns[at].1;
                    if *seen != ty {
                        *seen = CsvColumnType::Json;
                    }
                }
                None => {
                    self.index.insert(name.clone(), self.columns.len());
                    self.columns.push((name.clone(), ty));
                }
            }
        }
    }

    /// The columns in their final order: the leading ones that some item has, then the others
    /// in the order they first appeared.
    fn ordered(&self) -> Vec<(&str, CsvColumnType)> {
        let mut known = BTreeSet::new();
        let mut out = Vec::with_capacity(self.columns.len());
        for name in &self.leading {
            if let Some(&at) = self.index.get(name)
                && known.insert(name.as_str())
            {
                out.push((name.as_str(), self.columns[at].1));
            }
        }
        for (name, ty) in &self.columns {
            if known.insert(name.as_str()) {
                out.push((name.as_str(), *ty));
            }
        }
        out
    }

    /// A writer of the header and then of rows, for items already observed.
    pub fn writer<W: std::io::Write>(&self, out: W) -> Result<CsvRows<'_, W>, String> {
        let columns = self.ordered();
        let mut writer = csv::Writer::from_writer(out);
        let header: Vec<String> = columns
            .iter()
            .map(|(name, ty)| format!("{name}{}", ty.header_suffix().unwrap_or_default()))
            .collect();
        writer.write_record(&header).map_err(|err| err.to_string())?;
        Ok(CsvRows { columns, writer })
    }
}

/// Writes the rows of a CSV export under the header [`CsvColumns::writer`] wrote.
pub struct CsvRows<'a, W: std::io::Write> {
    columns: Vec<(&'a str, CsvColumnType)>,
    writer: csv::Writer<W>,
}

impl<W: std::io::Write> CsvRows<'_, W> {
    /// One item as a row: a scalar column's value as plain text (a number as DynamoDB's decimal
    /// text, every digit kept), any other as DynamoDB JSON, an absent attribute as an empty cell.
    pub fn write(&mut self, item: &Item) -> Result<(), String> {
        let row = self.columns.iter().map(|(name, ty)| match (item.get(*name), ty) {
            (None, _) => String::new(),
            (Some(AttributeValue::S(s)), CsvColumnType::S) => s.clone(),
            (Some(AttributeValue::N(n)), CsvColumnType::N) => n.clone(),
            (Some(AttributeValue::BOOL(b)), CsvColumnType::Bool) => b.to_string(),
            (Some(value), _) => serde_json::to_string(value).unwrap_or_default(),
        });
        self.writer.write_record(row).map_err(|err| err.to_string())
    }

    /// Flushes the rows and gives the output back.
    pub fn into_inner(self) -> Result<W, String> {
        self.writer.into_inner().map_err(|err| err.to_string())
    }
}

/// Items as CSV text (header + one row per item), the `leading` columns (the key attributes)
/// first, then the others in the order they first appear.
pub fn csv_text(items: &[Item], leading: &[String]) -> Result<String, String> {
    let mut columns = CsvColumns::new(leading);
    for item in items {
        columns.observe(item);
    }
    let mut rows = columns.writer(Vec::new())?;
    for item in items {
        rows.write(item)?;
    }
    String::from_utf8(rows.into_inner()?).map_err(|err| err.to_string())
}

/// Items from CSV text, each column typed as a preview of it types it (a header written by
/// [`csv_text`] gives every column its type back; see [`csv_types`]).
pub fn items_from_csv(text: &str) -> Result<Vec<Item>, String> {
    let choices = csv_types::preview(text.as_bytes(), &csv_types::KeyTypes::default())?.choices();
    CsvItems::new(text.as_bytes(), &choices)?.collect()
}

/// The items of CSV read from `reader` one row at a time, each cell read as its column's chosen
/// type ([`csv_types::cell_value`]): an import holds one row in memory, not the file.
pub struct CsvItems<R: std::io::Read> {
    columns: Vec<(String, CsvColumnType)>,
    records: csv::StringRecordsIntoIter<R>,
    /// The rows read so far (the header is not one).
    row: u64,
}

impl<R: std::io::Read> CsvItems<R> {
    /// Reads the header, which must be the one `choices` were made for.
    pub fn new(reader: R, choices: &[CsvColumnChoice]) -> Result<CsvItems<R>, String> {
        let mut reader = csv_types::csv_reader(reader);
        let header = reader
            .headers()
            .map_err(|err| format!("the CSV header cannot be read: {err}"))?;
        let columns = csv_types::chosen_columns(header, choices)?;
        Ok(CsvItems {
            columns,
            records: reader.into_records(),
            row: 0,
        })
    }

    fn item(&self, record: &csv::StringRecord) -> Result<Item, String> {
        let mut item = Item::new();
        for ((name, ty), cell) in self.columns.iter().zip(record.iter()) {
            match csv_types::cell_value(cell, *ty) {
                Ok(Some(value)) => {
                    item.insert(name.clone(), value);
                }
                Ok(None) => {}
                Err(why) => {
                    return Err(format!(
                        "{}, column {name}: {why}",
                        csv_types::row_place(self.row, record.position())
                    ));
                }
            }
        }
        Ok(item)
    }
}

impl<R: std::io::Read> Iterator for CsvItems<R> {
    type Item = Result<Item, String>;

    fn next(&mut self) -> Option<Result<Item, String>> {
        let record = self.records.next()?;
        self.row += 1;
        Some(
            record
                .map_err(|err| format!("{}: {err}", csv_types::row_place(self.row, err.position())))
                .and_then(|record| self.item(&record)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> Vec<Item> {
        let lines = [
            r#"{"vehicleId":{"S":"VEH#V-7741"},"recordedAt":{"S":"META"},"plate":{"S":"KX-1000, \"fleet\""},"commissioned":{"N":"2019"}}"#,
            r#"{"vehicleId":{"S":"VEH#V-7741"},"recordedAt":{"S":"TS#1"},"speedKph":{"N":"12345678901234567890.123"},"ok":{"BOOL":true},"tags":{"SS":["a","b"]},"raw":{"B":"AAEC"},"m":{"M":{"l":{"L":[{"N":"1"},{"NULL":true}]}}}}"#,
        ];
        lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn dynamodb_json_lines_round_trip_every_type() {
        for item in items() {
            let line = dynamodb_json_line(&item);
            assert!(line.starts_with(r#"{"Item":{"#), "{line}");
            assert_eq!(item_from_dynamodb_json(&line).unwrap(), item);
        }
        // A bare item (no wrapper) reads too.
        assert_eq!(
            item_from_dynamodb_json(r#"{"a":{"S":"x"}}"#).unwrap()["a"],
            AttributeValue::S("x".into())
        );
    }

    #[test]
    fn csv_round_trips_every_type_and_keeps_items_sparse() {
        let items = items();
        let text = csv_text(&items, &["vehicleId".to_owned(), "recordedAt".to_owned()]).unwrap();
        let header = text.lines().next().unwrap();
        assert_eq!(
            header,
            "vehicleId (S),recordedAt (S),commissioned (N),plate (S),m,ok (BOOL),raw,speedKph (N),tags"
        );
        let back = items_from_csv(&text).unwrap();
        assert_eq!(back, items);
    }

    #[test]
    fn plain_json_keeps_every_digit_on_export_and_reads_common_json_back() {
        let items = items();
        let line = plain_json_line(&items[1]);
        assert!(line.contains(r#""speedKph":12345678901234567890.123"#), "{line}");
        assert!(line.contains(r#""tags":["a","b"]"#), "{line}");
        let back = item_from_plain_json(
            r#"{"id":"a","n":42,"f":1.5,"ok":false,"none":null,"l":[1,"x"],"m":{"k":"v"}}"#,
        )
        .unwrap();
        assert_eq!(back["n"], AttributeValue::N("42".into()));
        assert_eq!(back["f"], AttributeValue::N("1.5".into()));
        assert_eq!(back["none"], AttributeValue::NULL(true));
        assert_eq!(
            back["l"],
            AttributeValue::L(vec![AttributeValue::N("1".into()), AttributeValue::S("x".into())])
        );
        assert!(item_from_plain_json("[1]").is_err());
    }

    #[test]
    fn plain_json_import_keeps_all_38_digits_of_a_number() {
        // A double keeps 15-17 significant digits: this number would come back altered.
        let line = r#"{"id":"a","big":12345678901234567890123456789012345678,"tiny":-0.00000000000000000000000000000000000123,"nested":{"l":[99999999999999999999999999999999999999]}}"#;
        let item = item_from_plain_json(line).unwrap();
        assert_eq!(
            item["big"],
            AttributeValue::N("12345678901234567890123456789012345678".into())
        );
        assert_eq!(
            item["tiny"],
            AttributeValue::N("-0.00000000000000000000000000000000000123".into())
        );
        let AttributeValue::M(nested) = &item["nested"] else {
            panic!("nested is not a map: {:?}", item["nested"])
        };
        assert_eq!(
            nested["l"],
            AttributeValue::L(vec![AttributeValue::N(
                "99999999999999999999999999999999999999".into()
            )])
        );
        // And the export writes the same text back.
        assert!(plain_json_line(&item).contains("\"big\":12345678901234567890123456789012345678"));
    }

    #[test]
    fn bad_csv_cells_are_reported_with_their_row_and_column() {
        let err = items_from_csv("id (S),ok (BOOL)\na,true\nb,maybe\n").unwrap_err();
        assert_eq!(err, "row 2, column ok: \"maybe\" is not true or false");
        // A column of DynamoDB JSON with one broken cell: that cell is the error, the column is
        // not read as strings.
        let err = items_from_csv("id (S),m\na,\"{\"\"S\"\":\"\"x\"\"}\"\nb,{broken\n").unwrap_err();
        assert!(err.starts_with("row 2, column m: not DynamoDB JSON"), "{err}");
        // A quoted cell holding a line break: the row and the line of the file differ.
        let err = items_from_csv("id (S),n (N)\n\"a\nb\",1\nc,x\n").unwrap_err();
        assert_eq!(
            err,
            "row 2 (line 4), column n: \"x\" is not a DynamoDB number (not a decimal number)"
        );
    }
}
