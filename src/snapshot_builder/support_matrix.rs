//! The support matrix (`data/support_matrix.csv`) into the catalog's rows:
//! which software runs on which hardware, with which formats. Every row
//! must cite its source and cover at least one catalog GPU, so a typo in a
//! vendor, an architecture or a compute capability fails the build.

use super::csv_table::{CsvTable, Row};
use super::BuildError;
use crate::engine::catalog::Gpu;
use crate::engine::support::SupportRow;

pub const SUPPORT_MATRIX_CSV: &str = include_str!("../../data/support_matrix.csv");

/// One CSV row as a matrix row, checked.
fn support_row(row: &Row<'_>, gpus: &[Gpu]) -> Result<SupportRow, BuildError> {
    let cell = |column: &str| row.optional(column).unwrap_or_default();
    let support = match (row.text("support")?, row.optional("becomes")) {
        (level @ ("native" | "no"), None) => level.to_string(),
        ("fallback", Some(becomes)) => format!("fallback:{becomes}"),
        (level, becomes) => {
            return Err(row.invalid(format!(
                "support \"{level}\" with becomes \"{}\": use native or no without becomes, or fallback with it",
                becomes.unwrap_or_default()
            )))
        }
    };
    let parsed = SupportRow::from_cells(
        row.text("stack")?,
        row.text("vendor")?,
        cell("architectures"),
        cell("min_cc"),
        cell("max_cc"),
        row.text("feature")?,
        &support,
    )
    .map_err(|e| row.invalid(e))?;
    row.text("note")?;
    if !row.text("source")?.contains("http") {
        return Err(row.invalid("source must cite the software's own documentation by its address".to_string()));
    }
    if !gpus.iter().any(|gpu| parsed.hardware.covers(gpu)) {
        return Err(
            row.invalid(format!("no catalog GPU is {}: check the vendor, architectures and bounds", parsed.hardware))
        );
    }
    Ok(parsed)
}

/// The matrix's rows, in the file's order.
pub fn support_matrix(gpus: &[Gpu]) -> Result<Vec<SupportRow>, BuildError> {
    CsvTable::from_text("data/support_matrix.csv", SUPPORT_MATRIX_CSV)?
        .rows()
        .map(|row| support_row(&row, gpus))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::support::{lookup, Answer};
    use crate::engine::Catalog;

    /// Every row of data/support_matrix.csv, with its citation, answers a
    /// question for at least one catalog GPU: no row is hidden by the rows
    /// above it, so each cited fact is one the engine applies.
    #[test]
    fn every_row_cites_its_source_and_answers_for_some_catalog_gpu() {
        let catalog = Catalog::bundled().unwrap();
        let rows = support_matrix(&catalog.gpus).unwrap();
        assert_eq!(
            rows, catalog.support,
            "public/data/catalog.json holds the matrix as data/support_matrix.csv states it"
        );
        let table = CsvTable::from_text("data/support_matrix.csv", SUPPORT_MATRIX_CSV).unwrap();
        let cited: Vec<String> = table.rows().map(|r| r.text("source").unwrap().to_string()).collect();
        assert_eq!(cited.len(), rows.len());
        let mut hidden = Vec::new();
        for (line, (row, source)) in rows.iter().zip(&cited).enumerate() {
            assert!(source.contains("https://"), "row {}: {source}", line + 2);
            for &feature in &row.features {
                let answers = catalog.gpus.iter().filter(|gpu| row.hardware.covers(gpu)).any(|gpu| {
                    matches!(lookup(&rows, row.stack, gpu, feature), Answer::Listed(_, by) if std::ptr::eq(by, row))
                });
                if !answers {
                    hidden.push(format!("line {}: {} {} on {} ({source})", line + 2, row.stack, feature, row.hardware));
                }
            }
        }
        assert!(hidden.is_empty(), "rows the rows above them hide:\n{}", hidden.join("\n"));
    }

    #[test]
    fn a_row_that_covers_no_catalog_gpu_or_cites_nothing_fails_the_build() {
        let catalog = Catalog::bundled().unwrap();
        let parse = |text: &str| -> Result<Vec<SupportRow>, BuildError> {
            let header = "stack,vendor,architectures,min_cc,max_cc,feature,support,becomes,note,source\n";
            let table = CsvTable::from_text("test.csv", &format!("{header}{text}\n"))?;
            let rows: Result<Vec<SupportRow>, BuildError> =
                table.rows().map(|row| support_row(&row, &catalog.gpus)).collect();
            rows
        };
        assert!(parse("vllm,NVIDIA,,8.0,,runs,native,,ok,https://docs.vllm.ai").is_ok());
        let typo = parse("vllm,NVIDA,,8.0,,runs,native,,ok,https://docs.vllm.ai").unwrap_err().to_string();
        assert!(typo.contains("no catalog GPU is NVIDA"), "{typo}");
        let uncited = parse("vllm,NVIDIA,,8.0,,runs,native,,ok,the docs").unwrap_err().to_string();
        assert!(uncited.contains("source must cite"), "{uncited}");
        let half = parse("vllm,NVIDIA,,8.0,,runs,fallback,,ok,https://x").unwrap_err().to_string();
        assert!(half.contains("fallback"), "{half}");
        let feature = parse("vllm,NVIDIA,,8.0,,weights:fp7,native,,ok,https://x").unwrap_err().to_string();
        assert!(feature.contains("fp7"), "{feature}");
        let arch = parse("vllm,AMD,CDNA9,,,runs,native,,ok,https://x").unwrap_err().to_string();
        assert!(arch.contains("CDNA9"), "{arch}");
    }
}
