//! Where an export's items go as pages arrive: a partial file beside the chosen one, renamed over
//! it only when the export is complete ([`ExportSink::finish`]). Dropped unfinished (cancelled,
//! failed, or the task itself dropped), the sink removes its files: the chosen name is left as
//! it was.
//!
//! Every format holds one page in memory at most. JSON lines and DynamoDB JSON are written line
//! by line through a buffer. CSV declares each column's type in its header, which depends on
//! every item: its items go to a spool file (DynamoDB JSON lines, lossless) while the columns are
//! learnt ([`CsvColumns`], one entry per attribute name), and at the end the header and then the
//! spooled items as rows are written.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::formats::{self, CsvColumns, FileFormat};
use crate::dto::Item;
use crate::files;
use crate::{CommandError, ErrorCode};

pub(super) struct ExportSink {
    /// The name the user chose.
    target: PathBuf,
    /// Where the items are written until the export is complete.
    partial: PathBuf,
    /// `None` once [`ExportSink::finish`] has taken it.
    out: Option<BufWriter<File>>,
    format: FileFormat,
    /// CSV only: the items spooled until the header can be written.
    csv: Option<CsvSpool>,
    /// The partial file became the target: nothing to remove.
    published: bool,
}

struct CsvSpool {
    path: PathBuf,
    out: BufWriter<File>,
    columns: CsvColumns,
}

impl ExportSink {
    /// Creates (or empties) the partial file beside `target`, and for CSV the spool beside it.
    pub(super) fn create(
        target: &Path,
        format: FileFormat,
        leading: &[String],
    ) -> Result<ExportSink, CommandError> {
        let partial = files::partial_path(target);
        let file = File::create(&partial).map_err(|err| failed(target, err))?;
        let mut sink = ExportSink {
            target: target.to_owned(),
            partial,
            out: Some(BufWriter::new(file)),
            format,
            csv: None,
            published: false,
        };
        if format == FileFormat::Csv {
            let path = files::spool_path(target);
            // Created after the sink, so that a failure here removes the partial file too.
            let file = File::create(&path).map_err(|err| failed(target, err))?;
            sink.csv = Some(CsvSpool {
                path,
                out: BufWriter::new(file),
                columns: CsvColumns::new(leading),
            });
        }
        Ok(sink)
    }

    /// Writes a page of items (CSV: to the spool).
    pub(super) fn write(&mut self, items: &[Item]) -> Result<(), CommandError> {
        let target = &self.target;
        if let Some(spool) = &mut self.csv {
            for item in items {
                spool.columns.observe(item);
                serde_json::to_writer(&mut spool.out, item)
                    .map_err(std::io::Error::from)
                    .and_then(|()| spool.out.write_all(b"\n"))
                    .map_err(|err| failed(target, err))?;
            }
            return Ok(());
        }
        let Some(out) = &mut self.out else {
            return Ok(());
        };
        for item in items {
            let mut text = match self.format {
                FileFormat::DynamodbJson => formats::dynamodb_json_line(item),
                FileFormat::JsonLines | FileFormat::Csv => formats::plain_json_line(item),
            };
            text.push('\n');
            out.write_all(text.as_bytes())
                .map_err(|err| failed(target, err))?;
        }
        Ok(())
    }

    /// Completes the file (CSV: the header, then the spooled items as rows, `on_row` called
    /// with the count written now and then), flushes and syncs it, and renames it over the chosen
    /// name: the chosen name holds either what it held before or the complete export.
    pub(super) fn finish(mut self, mut on_row: impl FnMut(u32)) -> Result<(), CommandError> {
        let Some(mut out) = self.out.take() else {
            return Ok(());
        };
        if let Some(spool) = self.csv.take() {
            let path = spool.path.clone();
            let result = write_csv(&self.target, spool, &mut out, &mut on_row);
            let _ = std::fs::remove_file(&path);
            result?;
        }
        let file = out
            .into_inner()
            .map_err(|err| failed(&self.target, err.into_error()))?;
        file.sync_all().map_err(|err| failed(&self.target, err))?;
        drop(file);
        std::fs::rename(&self.partial, &self.target).map_err(|err| failed(&self.target, err))?;
        self.published = true;
        Ok(())
    }
}

/// The header, then every spooled item as a row.
fn write_csv(
    target: &Path,
    spool: CsvSpool,
    out: &mut BufWriter<File>,
    on_row: &mut impl FnMut(u32),
) -> Result<(), CommandError> {
    let CsvSpool {
        path,
        out: mut spooled,
        columns,
    } = spool;
    spooled.flush().map_err(|err| failed(target, err))?;
    drop(spooled);
    let mut rows = columns
        .writer(out)
        .map_err(|err| failed(target, std::io::Error::other(err)))?;
    let reader = BufReader::new(File::open(&path).map_err(|err| failed(target, err))?);
    let mut written = 0u32;
    for line in reader.lines() {
        let line = line.map_err(|err| failed(target, err))?;
        let item: Item = serde_json::from_str(&line).map_err(|err| {
            CommandError::new(
                ErrorCode::Internal,
                format!("The CSV spool could not be read back: {err}"),
            )
        })?;
        rows.write(&item)
            .map_err(|err| failed(target, std::io::Error::other(err)))?;
        written += 1;
        if written.is_multiple_of(ROWS_PER_REPORT) {
            on_row(written);
        }
    }
    rows.into_inner()
        .map_err(|err| failed(target, std::io::Error::other(err)))?;
    on_row(written);
    Ok(())
}

/// Rows written between two progress reports of a CSV's second pass.
const ROWS_PER_REPORT: u32 = 10_000;

impl Drop for ExportSink {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_file(&self.partial);
        }
        if let Some(spool) = &self.csv {
            let _ = std::fs::remove_file(&spool.path);
        }
    }
}

fn failed(path: &Path, err: std::io::Error) -> CommandError {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    CommandError::new(
        ErrorCode::Validation,
        format!("The export could not be written to {name}: {err}"),
    )
}
