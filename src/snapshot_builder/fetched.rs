//! The offer files a refresh keeps (`data/fetched` by default) and their
//! manifest, [`MANIFEST`]: what `snapshot --fetch` writes and every later
//! build reads in place of `--from`'s offer files, dating each source by the
//! commit it was read at.

use super::build_error::BuildError;
use super::csv_table::Row;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest at the root of the kept directory.
pub const MANIFEST: &str = "FETCHED.json";

/// Chosen: where `--fetch` keeps the offer files it fetched, and where
/// `snapshot --from` reads them when it holds a [`MANIFEST`] (relative to
/// the working directory, the repository's root). In the repository, so
/// that a refresh commits the inputs of the snapshot it proposes.
pub const DEFAULT_KEEP: &str = "data/fetched";

/// What was fetched (`FETCHED.json`).
#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// UTC, from the system clock, when the downloads started.
    pub fetched_at: String,
    pub base_url: String,
    pub files: Vec<FetchedFile>,
}

/// One upstream file as it was downloaded. The file itself is not kept
/// (some are megabytes of rows no offer uses): its URL, size and SHA-256
/// name it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FetchedFile {
    pub url: String,
    /// `owner/repo`.
    pub repository: String,
    /// The branch `data/offer_sources.csv` names.
    #[serde(rename = "ref")]
    pub reference: String,
    pub path: String,
    /// The last commit on the branch that touched the file, which was read;
    /// `None` from a mirror.
    pub commit: Option<String>,
    /// That commit's date (its committer's, UTC), `YYYY-MM-DD`: the sources'
    /// `as_of`.
    pub commit_date: Option<String>,
    pub bytes: usize,
    pub sha256: String,
    /// Data rows of a CSV file (the header not counted).
    pub rows: Option<usize>,
    /// The local files made from it.
    pub copies: Vec<CopyRecord>,
}

/// One local file made from an upstream file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CopyRecord {
    pub source: String,
    /// Its path in the kept directory, as `data/offer_sources.csv` names it.
    pub file: String,
    /// `upstream_rows`: which rows it keeps; absent for the whole file.
    pub upstream_rows: Option<String>,
    pub rows: Option<usize>,
}

impl Manifest {
    /// The manifest at the root of `dir`, or `None` when it holds none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, BuildError> {
        let path = dir.join(MANIFEST);
        if !path.is_file() {
            return Ok(None);
        }
        let damaged = |message: String| BuildError::Io {
            path: path.clone(),
            message: format!(
                "{message}; it is written by `whichgpu snapshot --fetch`: fetch again, or delete {} to build from \
                 --from's offers",
                dir.display()
            ),
        };
        let text = std::fs::read_to_string(&path).map_err(|e| damaged(e.to_string()))?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| damaged(format!("not a manifest: {e}")))?;
        for file in &manifest.files {
            if let Some(date) = file.commit_date.as_deref().filter(|date| !is_iso_date(date)) {
                return Err(damaged(format!("commit_date \"{date}\" of {} is not YYYY-MM-DD", file.url)));
            }
        }
        Ok(Some(manifest))
    }
}

/// The commit and date a fetched source was read at, from `manifest` (the
/// [`MANIFEST`] of `dir`), for `row` of `data/offer_sources.csv`: `None`
/// when they were not resolved (a mirror). Fails when `dir` does not hold
/// what the row names, fetched as the row says (the row changed since).
pub(super) fn pinned_version(
    manifest: &Manifest,
    dir: &Path,
    row: &Row<'_>,
) -> Result<Option<(String, String)>, BuildError> {
    let source = row.text("id")?;
    let upstream = row.text("upstream_url_path")?;
    let at = UpstreamPath::parse(upstream)
        .ok_or_else(|| row.invalid(format!("upstream_url_path \"{upstream}\" is not OWNER/REPO/REF/PATH")))?;
    let stale = |what: String| BuildError::Io {
        path: dir.join(MANIFEST),
        message: format!(
            "{what}, as data/offer_sources.csv now says: fetch again with `whichgpu snapshot --fetch`, or delete {} \
             to build from --from's offers",
            dir.display()
        ),
    };
    let files: Vec<&str> = row.text("file")?.split(';').collect();
    let filters: Vec<&str> = match row.optional("upstream_rows") {
        Some(text) => text.split(';').map(str::trim).collect(),
        None => Vec::new(),
    };
    let mut pinned = None;
    for (i, file) in files.into_iter().enumerate() {
        let filter = filters.get(i).copied().unwrap_or("");
        let Some((fetched, copy)) = manifest.files.iter().find_map(|fetched| {
            fetched.copies.iter().find(|copy| copy.source == source && copy.file == file).map(|copy| (fetched, copy))
        }) else {
            return Err(stale(format!("{source}: {file} was not fetched")));
        };
        if (fetched.repository.as_str(), fetched.reference.as_str(), fetched.path.as_str())
            != (at.repository().as_str(), at.reference.as_str(), at.path.as_str())
        {
            return Err(stale(format!(
                "{source}: {file} was fetched from {}/{}/{}, not {upstream}",
                fetched.repository, fetched.reference, fetched.path
            )));
        }
        if copy.upstream_rows.as_deref().unwrap_or("") != filter {
            return Err(stale(format!(
                "{source}: {file} was fetched keeping the rows \"{}\", not \"{filter}\"",
                copy.upstream_rows.as_deref().unwrap_or("")
            )));
        }
        pinned = fetched.commit.clone().zip(fetched.commit_date.clone());
    }
    Ok(pinned)
}

/// Whether `text` is a calendar date written `YYYY-MM-DD`.
pub(super) fn is_iso_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
        && crate::engine::freshness::parse_date(text).is_some()
}

/// Where an upstream file lives: `{owner}/{repo}/{ref}/{path}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UpstreamPath {
    pub(super) owner: String,
    pub(super) repo: String,
    pub(super) reference: String,
    pub(super) path: String,
}

impl UpstreamPath {
    pub(super) fn parse(text: &str) -> Option<UpstreamPath> {
        let mut parts = text.splitn(4, '/').map(str::trim).filter(|part| !part.is_empty()).map(str::to_string);
        let (owner, repo, reference, path) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        Some(UpstreamPath { owner, repo, reference, path })
    }

    pub(super) fn repository(&self) -> String {
        format!("{}/{}", self.owner, self.repo)
    }

    /// The file's URL under `base`, at `commit` when known, else at its ref.
    pub(super) fn url(&self, base: &str, commit: Option<&str>) -> String {
        let at = commit.unwrap_or(&self.reference);
        format!("{}/{}/{}/{at}/{}", base.trim_end_matches('/'), self.owner, self.repo, self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_dates_are_iso_calendar_dates() {
        assert!(is_iso_date("2024-12-23"));
        for text in ["2024-12", "2024-12-23T00", "24-12-2023", "2024/12/23", "about 2023", "2024-13-01", "2024-00-10"] {
            assert!(!is_iso_date(text), "{text}");
        }
    }
}
