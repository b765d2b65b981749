//! A CSV file read whole, with cells addressed by column name.

use super::BuildError;
use std::collections::HashMap;
use std::path::Path;

pub struct CsvTable {
    name: String,
    columns: HashMap<String, usize>,
    records: Vec<(u64, csv::StringRecord)>,
}

/// One row, with its 1-based line number for messages.
pub struct Row<'a> {
    table: &'a CsvTable,
    pub line: u64,
    record: &'a csv::StringRecord,
}

impl CsvTable {
    pub fn read(path: &Path) -> Result<CsvTable, BuildError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BuildError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        CsvTable::from_text(&path.display().to_string(), &text)
    }

    pub fn from_text(name: &str, text: &str) -> Result<CsvTable, BuildError> {
        let error = |line: u64, message: String| BuildError::Csv { path: name.to_string(), line, message };
        let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
        let headers = reader.headers().map_err(|e| error(1, e.to_string()))?.clone();
        let columns = headers.iter().enumerate().map(|(i, h)| (h.trim().to_string(), i)).collect();
        let mut records = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                error(line, e.to_string())
            })?;
            let line = record.position().map_or(0, |p| p.line());
            records.push((line, record));
        }
        Ok(CsvTable { name: name.to_string(), columns, records })
    }

    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.records.iter().map(move |(line, record)| Row { table: self, line: *line, record })
    }
}

impl Row<'_> {
    /// An error about this row, with its file and line.
    pub fn invalid(&self, message: String) -> BuildError {
        self.error(message)
    }

    fn error(&self, message: String) -> BuildError {
        BuildError::Csv { path: self.table.name.clone(), line: self.line, message }
    }

    fn cell(&self, column: &str) -> Result<&str, BuildError> {
        let index = self.table.columns.get(column).ok_or_else(|| self.error(format!("no column \"{column}\"")))?;
        Ok(self.record.get(*index).unwrap_or("").trim())
    }

    /// A cell that must not be empty.
    pub fn text(&self, column: &str) -> Result<&str, BuildError> {
        match self.cell(column)? {
            "" => Err(self.error(format!("empty {column}"))),
            text => Ok(text),
        }
    }

    /// A cell that may be empty (or the column absent).
    pub fn optional(&self, column: &str) -> Option<&str> {
        self.cell(column).ok().filter(|text| !text.is_empty())
    }

    /// A number, `None` when empty; an unparsable cell is an error.
    pub fn number(&self, column: &str) -> Result<Option<f64>, BuildError> {
        match self.optional(column) {
            None => Ok(None),
            Some(text) => match text.parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(Some(value)),
                _ => Err(self.error(format!("{column} \"{text}\" is not a number"))),
            },
        }
    }

    /// A whole number, `None` when empty; a fraction or a negative is an error.
    pub fn whole(&self, column: &str) -> Result<Option<u32>, BuildError> {
        match self.number(column)? {
            Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => Ok(Some(v as u32)),
            Some(v) => Err(self.error(format!("{column} {v} is not a whole number"))),
            None => Ok(None),
        }
    }

    /// `yes` or `no`, `no` when empty.
    pub fn yes_no(&self, column: &str) -> Result<bool, BuildError> {
        match self.optional(column).unwrap_or("no") {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(self.error(format!("{column} \"{other}\" is not yes or no"))),
        }
    }
}
