//! Where an export's items go as pages arrive: the partial file beside the chosen one.
//!
//! JSON lines and DynamoDB JSON are written line by line through a buffer, so an export of any
//! size holds one page in memory. CSV declares each column's type in its header, which depends
//! on every item, so its items are kept until [`ExportSink::finish`].

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::formats::{self, FileFormat};
use crate::dto::Item;
use crate::{CommandError, ErrorCode};

pub(super) struct ExportSink {
    path: PathBuf,
    out: BufWriter<File>,
    format: FileFormat,
    leading: Vec<String>,
    /// CSV only: the items, until the header can be written.
    held: Vec<Item>,
}

impl ExportSink {
    /// Creates (or empties) the partial file at `path`.
    pub(super) fn create(path: &Path, format: FileFormat, leading: Vec<String>) -> Result<ExportSink, CommandError> {
        let file = File::create(path).map_err(|err| failed(path, err))?;
        Ok(ExportSink {
            path: path.to_owned(),
            out: BufWriter::new(file),
            format,
            leading,
            held: Vec::new(),
        })
    }

    /// Writes a page of items (CSV: keeps them).
    pub(super) fn write(&mut self, items: Vec<Item>) -> Result<(), CommandError> {
        let line: fn(&Item) -> String = match self.format {
            FileFormat::Csv => {
                self.held.extend(items);
                return Ok(());
            }
            FileFormat::JsonLines => formats::plain_json_line,
            FileFormat::DynamodbJson => formats::dynamodb_json_line,
        };
        for item in &items {
            let mut text = line(item);
            text.push('\n');
            self.out.write_all(text.as_bytes()).map_err(|err| failed(&self.path, err))?;
        }
        Ok(())
    }

    /// Writes what is held, flushes and syncs the file, so the rename that follows publishes a
    /// complete file.
    pub(super) fn finish(mut self) -> Result<(), CommandError> {
        if self.format == FileFormat::Csv {
            let text = formats::csv_text(&self.held, &self.leading)
                .map_err(|err| CommandError::new(ErrorCode::Internal, err))?;
            self.out.write_all(text.as_bytes()).map_err(|err| failed(&self.path, err))?;
        }
        let file = self.out.into_inner().map_err(|err| failed(&self.path, err.into_error()))?;
        file.sync_all().map_err(|err| failed(&self.path, err))
    }
}

fn failed(path: &Path, err: std::io::Error) -> CommandError {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    CommandError::new(ErrorCode::Validation, format!("The export could not be written ({name}): {err}"))
}
