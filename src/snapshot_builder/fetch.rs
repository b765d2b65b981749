//! `whichgpu snapshot --fetch`: a live refresh. Downloads the upstream file
//! each row of `data/offer_sources.csv` names (`upstream_url_path`), keeps
//! the rows its local copy holds (`upstream_rows`), checks each file
//! against the last build, and builds the snapshot from them as `--from`
//! does, with the fetched offer files in place of `--from`'s.
//!
//! Nothing in the output directory, nor in the kept directory, changes
//! unless every file downloads, passes its checks and the snapshot builds.
//! What is kept is only the offer files, at the paths of
//! `data/offer_sources.csv`'s `file` column, and [`MANIFEST`]: each upstream
//! file's URL, the commit that last changed it and that commit's date, its
//! size, SHA-256 and rows, and the fetch time. `snapshot --offers DIR`
//! rebuilds the same snapshot from it byte for byte, and by default (in
//! [`DEFAULT_KEEP`], committed) it is the input every later build reads.

use super::csv_table::CsvTable;
use super::fetched::{is_iso_date, UpstreamPath};
pub use super::fetched::{CopyRecord, FetchedFile, Manifest, DEFAULT_KEEP, MANIFEST};
use super::{build_with, write as write_snapshot, BuildError, Built, OFFER_SOURCES_CSV};
use crate::units::SECONDS_PER_DAY;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where `--fetch` reads by default: GitHub's raw file host, whose paths
/// are `{owner}/{repo}/{ref}/{path}` as `upstream_url_path` is written, and
/// where `{ref}` may be a commit.
pub const DEFAULT_BASE_URL: &str = "https://raw.githubusercontent.com";

/// GitHub's REST API. "List commits" (`GET /repos/{owner}/{repo}/commits`,
/// docs.github.com/rest/commits/commits) with `sha` (the branch), `path`
/// and `per_page=1` answers the last commit on the branch that touched the
/// file, newest first, as a JSON array of `{sha, commit: {committer:
/// {date}}}`.
const GITHUB_API: &str = "https://api.github.com";

/// The REST API version asked for, as GitHub's "API Versions" page
/// recommends sending (`X-GitHub-Api-Version`); 2022-11-28 is the version
/// the "List commits" answer above is documented for.
const GITHUB_API_VERSION: &str = "2022-11-28";

/// Chosen bound: the largest file read is AWS's `vms.csv`, 3,113,907 bytes
/// (../shared/data/SOURCES.md §1); a file twenty times larger is no catalog.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Chosen bound, per request: the largest file is about 3 MB; a stalled
/// server must not hang the refresh.
const TIMEOUT: Duration = Duration::from_secs(300);

/// Chosen bound: a source that comes back with fewer than 1/N of the rows
/// the last build read was most likely cut short, not trimmed upstream.
const MIN_ROWS_DIVISOR: usize = 2;

/// Where the refresh reads, what it builds on, and where it writes.
pub struct FetchOptions<'a> {
    /// Where upstream paths are read: [`DEFAULT_BASE_URL`] or a mirror laid
    /// out the same way.
    pub base_url: &'a str,
    /// An API that names the last commit that touched a file
    /// ([`commits_api_for`]); `None` fetches each ref as named and leaves
    /// each source's commit and `as_of` those of `data/offer_sources.csv`.
    pub commits_api: Option<&'a str>,
    /// Sent to `commits_api` as a bearer token when given: GitHub allows 60
    /// requests an hour without one, and a refresh asks once per file.
    pub api_token: Option<&'a str>,
    /// The data tree (a copy of `../shared/data`) the inputs that are not
    /// fetched come from (gpus.csv, models.csv, providers.csv, …).
    pub from: &'a Path,
    /// The snapshot directory: its SUMMARY.md holds the last build's rows.
    pub out: &'a Path,
    /// Where the fetched offer files and [`MANIFEST`] are kept. A tree kept
    /// there before is the last build's offers, whose headers the new
    /// files must keep (else `from`'s offers are).
    pub keep: &'a Path,
}

/// The commits API to ask for a base URL: GitHub's for GitHub's raw host,
/// none for a mirror.
pub fn commits_api_for(base_url: &str) -> Option<&'static str> {
    (base_url.trim_end_matches('/') == DEFAULT_BASE_URL).then_some(GITHUB_API)
}

/// A successful refresh.
#[derive(Debug)]
pub struct Refreshed {
    pub built: Built,
    pub manifest: Manifest,
}

/// Why a refresh stopped. The snapshot and kept directories are untouched,
/// unless writing them is what failed.
#[derive(Debug)]
pub enum FetchError {
    /// A file could not be downloaded, or is no catalog file.
    Download { url: String, sources: String, message: String },
    /// A downloaded file fails a check against the last build.
    Check { url: String, source: String, message: String },
    /// The fetched data does not build, or `data/offer_sources.csv` does not
    /// say how to fetch it.
    Build(BuildError),
    /// A directory could not be read or written.
    Io { path: PathBuf, message: String },
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::Download { url, sources, message } => write!(f, "{url} (for {sources}): {message}"),
            FetchError::Check { url, source, message } => write!(f, "{source} ({url}): {message}"),
            FetchError::Build(e) => write!(f, "{e}"),
            FetchError::Io { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for FetchError {}

impl From<BuildError> for FetchError {
    fn from(e: BuildError) -> FetchError {
        FetchError::Build(e)
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> FetchError + '_ {
    move |e| FetchError::Io { path: path.to_path_buf(), message: e.to_string() }
}

/// The offer files the last build read: the kept directory when a refresh
/// left one there, else `options.from`'s.
fn last_offers<'a>(options: &FetchOptions<'a>) -> &'a Path {
    if options.keep.join(MANIFEST).is_file() {
        options.keep
    } else {
        options.from
    }
}

/// `path` with `suffix` and this process's id added to its name, beside it.
fn sibling(path: &Path, suffix: &str) -> Result<PathBuf, FetchError> {
    let Some(name) = path.file_name() else {
        return Err(FetchError::Io { path: path.to_path_buf(), message: "--keep must name a directory".into() });
    };
    let mut name = name.to_os_string();
    name.push(format!(".{suffix}-{}", std::process::id()));
    Ok(path.with_file_name(name))
}

/// Downloads, checks, keeps and builds; replaces the snapshot in
/// `options.out` and the tree in `options.keep` only when all of it
/// succeeds.
pub fn refresh(options: &FetchOptions<'_>) -> Result<Refreshed, FetchError> {
    let plan = plan()?;
    if !options.from.join("gpus.csv").is_file() {
        return Err(FetchError::Io {
            path: options.from.to_path_buf(),
            message: "holds no gpus.csv: --from must name a copy of ../shared/data".into(),
        });
    }
    if options.keep.exists() && !options.keep.join(MANIFEST).is_file() {
        return Err(FetchError::Io {
            path: options.keep.to_path_buf(),
            message: format!(
                "exists and holds no {MANIFEST}; --fetch replaces only a tree it kept, so name a new directory with --keep"
            ),
        });
    }
    let staging = sibling(options.keep, "fetching")?;
    let previous = sibling(options.keep, "previous")?;

    let downloads = download_all(options, &plan)?;
    let staged = stage(options, &downloads, &staging).and_then(|manifest| {
        let built = build_with(options.from, Some(&staging))?;
        check_rows_read(options, &manifest, &built)?;
        Ok(Refreshed { built, manifest })
    });
    let refreshed = match staged {
        Ok(refreshed) => refreshed,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };

    // Every check passed: the kept tree (the last one set aside until the
    // new one is in place), then the snapshot's files.
    let had_one = options.keep.exists();
    if had_one {
        std::fs::rename(options.keep, &previous).map_err(io(options.keep))?;
    }
    if let Err(e) = std::fs::rename(&staging, options.keep) {
        if had_one {
            let _ = std::fs::rename(&previous, options.keep);
        }
        let _ = std::fs::remove_dir_all(&staging);
        return Err(io(options.keep)(e));
    }
    if had_one {
        std::fs::remove_dir_all(&previous).map_err(io(&previous))?;
    }
    let scratch = options.out.join(format!(".fetching-{}", std::process::id()));
    write_snapshot(&refreshed.built, &scratch)?;
    for entry in std::fs::read_dir(&scratch).map_err(io(&scratch))? {
        let entry = entry.map_err(io(&scratch))?;
        let target = options.out.join(entry.file_name());
        std::fs::rename(entry.path(), &target).map_err(io(&target))?;
    }
    std::fs::remove_dir(&scratch).map_err(io(&scratch))?;
    Ok(refreshed)
}

/// A local file of a source, made from an upstream file.
struct LocalCopy {
    source: String,
    file: String,
    rows: Option<RowFilter>,
}

/// One upstream file and the local files made from it.
struct Upstream {
    at: UpstreamPath,
    copies: Vec<LocalCopy>,
}

impl Upstream {
    fn sources(&self) -> String {
        let mut ids: Vec<&str> = self.copies.iter().map(|c| c.source.as_str()).collect();
        ids.dedup();
        ids.join(", ")
    }
}

/// The upstream files to fetch, in the order `data/offer_sources.csv`
/// first names them.
fn plan() -> Result<Vec<Upstream>, BuildError> {
    let table = CsvTable::from_text("data/offer_sources.csv", OFFER_SOURCES_CSV)?;
    let mut plan: Vec<Upstream> = Vec::new();
    for row in table.rows() {
        let source = row.text("id")?;
        let text = row.text("upstream_url_path")?;
        let at = UpstreamPath::parse(text)
            .ok_or_else(|| row.invalid(format!("upstream_url_path \"{text}\" is not OWNER/REPO/REF/PATH")))?;
        let files: Vec<&str> = row.text("file")?.split(';').collect();
        let filters: Vec<&str> = match row.optional("upstream_rows") {
            Some(text) => text.split(';').collect(),
            None => vec![""; files.len()],
        };
        if filters.len() != files.len() {
            return Err(row.invalid(format!(
                "upstream_rows gives {} row filters for {} files; give one per file, separated by ;",
                filters.len(),
                files.len()
            )));
        }
        let index = match plan.iter().position(|upstream| upstream.at == at) {
            Some(index) => index,
            None => {
                plan.push(Upstream { at, copies: Vec::new() });
                plan.len() - 1
            }
        };
        for (file, filter) in files.into_iter().zip(filters) {
            let rows = match filter.trim() {
                "" => None,
                text => Some(RowFilter::parse(text).map_err(|e| row.invalid(format!("upstream_rows: {e}")))?),
            };
            if rows.is_some() && file.ends_with(".json") {
                return Err(row.invalid(format!("upstream_rows filters CSV rows; {file} is JSON")));
            }
            plan[index].copies.push(LocalCopy { source: source.to_string(), file: file.to_string(), rows });
        }
    }
    Ok(plan)
}

/// Which rows of an upstream CSV file a local file keeps (`upstream_rows`):
/// alternatives joined by ` or `, each `Column^a|b` (the cell starts with
/// one of), `Column=a|b` (equals one of) or `Column!=a|b` (equals none of;
/// `Column!=` keeps the rows whose cell is not empty). Cells are trimmed,
/// as the builder reads them.
#[derive(Debug, Clone)]
struct RowFilter {
    text: String,
    alternatives: Vec<Condition>,
}

#[derive(Debug, Clone)]
struct Condition {
    column: String,
    test: Test,
    values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    StartsWith,
    Equals,
    EqualsNone,
}

impl RowFilter {
    fn parse(text: &str) -> Result<RowFilter, String> {
        let alternatives = text.split(" or ").map(Condition::parse).collect::<Result<_, _>>()?;
        Ok(RowFilter { text: text.to_string(), alternatives })
    }

    /// Each alternative's column index in `columns`.
    fn bind(&self, columns: &[String]) -> Result<Vec<usize>, String> {
        self.alternatives
            .iter()
            .map(|c| {
                columns.iter().position(|name| *name == c.column).ok_or_else(|| {
                    format!("upstream_rows \"{}\" names column \"{}\", which the file lacks", self.text, c.column)
                })
            })
            .collect()
    }

    fn keeps(&self, at: &[usize], record: &csv::StringRecord) -> bool {
        self.alternatives.iter().zip(at).any(|(condition, &i)| condition.holds(record.get(i).unwrap_or("").trim()))
    }
}

impl Condition {
    fn parse(text: &str) -> Result<Condition, String> {
        let text = text.trim();
        let invalid = || format!("\"{text}\" is not Column^prefix|…, Column=value|… or Column!=value|…");
        let at = text.find(['!', '=', '^']).ok_or_else(invalid)?;
        let (column, rest) = text.split_at(at);
        let (test, values) = if let Some(values) = rest.strip_prefix("!=") {
            (Test::EqualsNone, values)
        } else if let Some(values) = rest.strip_prefix('=') {
            (Test::Equals, values)
        } else if let Some(values) = rest.strip_prefix('^') {
            (Test::StartsWith, values)
        } else {
            return Err(invalid());
        };
        let values: Vec<String> = values.split('|').map(|v| v.trim().to_string()).collect();
        if column.trim().is_empty() || (test == Test::StartsWith && values.iter().any(String::is_empty)) {
            return Err(invalid());
        }
        Ok(Condition { column: column.trim().to_string(), test, values })
    }

    fn holds(&self, cell: &str) -> bool {
        match self.test {
            Test::StartsWith => self.values.iter().any(|prefix| cell.starts_with(prefix.as_str())),
            Test::Equals => self.values.iter().any(|value| cell == value),
            Test::EqualsNone => !self.values.iter().any(|value| cell == value),
        }
    }
}

/// A downloaded CSV file: its columns, and where each row's bytes lie.
struct CsvFile<'t> {
    text: &'t str,
    columns: Vec<String>,
    header_end: usize,
    rows: Vec<(Range<usize>, csv::StringRecord)>,
}

impl<'t> CsvFile<'t> {
    fn parse(text: &'t str) -> Result<CsvFile<'t>, String> {
        let damaged = |e: csv::Error| format!("{e}; the file is damaged or cut short");
        let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
        let columns = reader.headers().map_err(damaged)?.iter().map(|name| name.trim().to_string()).collect();
        let header_end = reader.position().byte() as usize;
        let mut rows = Vec::new();
        let mut record = csv::StringRecord::new();
        loop {
            let start = reader.position().byte() as usize;
            if !reader.read_record(&mut record).map_err(damaged)? {
                break;
            }
            rows.push((start..reader.position().byte() as usize, record.clone()));
        }
        if rows.is_empty() {
            return Err("it holds a header and no rows".into());
        }
        Ok(CsvFile { text, columns, header_end, rows })
    }

    /// The header and the rows `filter` keeps, each as its bytes upstream
    /// and ended as upstream ends its lines, and how many rows that is.
    fn copy(&self, filter: Option<&RowFilter>) -> Result<(String, usize), String> {
        let Some(filter) = filter else {
            return Ok((self.text.to_string(), self.rows.len()));
        };
        let at = filter.bind(&self.columns)?;
        // The reader's positions split a CRLF, so each line is cut free of
        // its ends and given the file's own.
        let end_of_line =
            if self.text.split('\n').next().is_some_and(|line| line.ends_with('\r')) { "\r\n" } else { "\n" };
        let line = |bytes: Range<usize>| self.text.get(bytes).unwrap_or_default().trim_matches(['\r', '\n']);
        let mut copy = String::new();
        copy.push_str(line(0..self.header_end));
        copy.push_str(end_of_line);
        let mut kept = 0;
        for (bytes, record) in &self.rows {
            if filter.keeps(&at, record) {
                copy.push_str(line(bytes.clone()));
                copy.push_str(end_of_line);
                kept += 1;
            }
        }
        Ok((copy, kept))
    }

    /// The columns of `expected` this file lacks.
    fn missing<'e>(&self, expected: &'e [String]) -> Vec<&'e str> {
        expected.iter().filter(|name| !self.columns.contains(name)).map(String::as_str).collect()
    }
}

/// One upstream file, downloaded and checked, with the local files made
/// from it.
struct Download {
    record: FetchedFile,
    /// The content of each of `record.copies`.
    contents: Vec<String>,
}

/// The local files made from one upstream file.
struct Copies {
    records: Vec<CopyRecord>,
    /// The content of each of `records`.
    contents: Vec<String>,
    /// The upstream file's data rows, when it is CSV.
    rows: Option<usize>,
}

/// The last commit that touched a file, and its date (`YYYY-MM-DD`).
struct LastCommit {
    sha: String,
    date: String,
}

fn download_all(options: &FetchOptions<'_>, plan: &[Upstream]) -> Result<Vec<Download>, FetchError> {
    let agent: ureq::Agent = ureq::Agent::config_builder().timeout_global(Some(TIMEOUT)).build().into();
    let mut downloads = Vec::new();
    for upstream in plan {
        let at = &upstream.at;
        let last = match options.commits_api {
            Some(api) => Some(last_commit(&agent, api, options.api_token, upstream)?),
            None => None,
        };
        let url = at.url(options.base_url, last.as_ref().map(|commit| commit.sha.as_str()));
        let bytes = get(&agent, &url, &[]).map_err(|message| FetchError::Download {
            url: url.clone(),
            sources: upstream.sources(),
            message,
        })?;
        let copies = make_copies(options, upstream, &url, &bytes)?;
        let (commit, commit_date) = match last {
            Some(LastCommit { sha, date }) => (Some(sha), Some(date)),
            None => (None, None),
        };
        let record = FetchedFile {
            url,
            repository: at.repository(),
            reference: at.reference.clone(),
            path: at.path.clone(),
            commit,
            commit_date,
            bytes: bytes.len(),
            sha256: Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect(),
            rows: copies.rows,
            copies: copies.records,
        };
        downloads.push(Download { record, contents: copies.contents });
    }
    Ok(downloads)
}

/// Checks a downloaded file and makes its local files.
fn make_copies(options: &FetchOptions<'_>, upstream: &Upstream, url: &str, bytes: &[u8]) -> Result<Copies, FetchError> {
    let not_a_catalog =
        |message: String| FetchError::Download { url: url.to_string(), sources: upstream.sources(), message };
    let text = std::str::from_utf8(bytes).map_err(|e| not_a_catalog(format!("not UTF-8 text ({e})")))?;
    if text.trim().is_empty() {
        return Err(not_a_catalog("the file is empty".into()));
    }
    let csv_file = if upstream.at.path.ends_with(".json") {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| not_a_catalog(format!("not JSON: {e}")))?;
        if value.as_object().is_none_or(|object| object.is_empty()) {
            return Err(not_a_catalog("not a JSON object of prices".into()));
        }
        None
    } else {
        Some(CsvFile::parse(text).map_err(not_a_catalog)?)
    };
    let (mut records, mut contents) = (Vec::new(), Vec::new());
    for copy in &upstream.copies {
        let failed = |message: String| FetchError::Check { url: url.to_string(), source: copy.source.clone(), message };
        let (content, rows) = match &csv_file {
            None => (text.to_string(), None),
            Some(csv_file) => {
                // The last build's copy, else --from's (a source new to the kept tree).
                let last_copy = [last_offers(options), options.from]
                    .map(|root| root.join(&copy.file))
                    .into_iter()
                    .find(|path| path.is_file());
                if let Some(last_copy) = last_copy {
                    let expected = columns_of(&last_copy)?;
                    let missing = csv_file.missing(&expected);
                    if !missing.is_empty() {
                        return Err(failed(format!(
                            "the header lost column(s) {} that {} has: the reader reads cells by name, so their \
                             data would go missing; adapt the reader before refreshing (header now: {})",
                            missing.join(", "),
                            last_copy.display(),
                            csv_file.columns.join(",")
                        )));
                    }
                }
                let (content, rows) = csv_file.copy(copy.rows.as_ref()).map_err(failed)?;
                (content, Some(rows))
            }
        };
        records.push(CopyRecord {
            source: copy.source.clone(),
            file: copy.file.clone(),
            upstream_rows: copy.rows.as_ref().map(|filter| filter.text.clone()),
            rows,
        });
        contents.push(content);
    }
    Ok(Copies { records, contents, rows: csv_file.map(|file| file.rows.len()) })
}

/// The columns of a CSV file the last build read.
fn columns_of(path: &Path) -> Result<Vec<String>, FetchError> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| FetchError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    let headers = reader.headers().map_err(|e| FetchError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    Ok(headers.iter().map(|name| name.trim().to_string()).collect())
}

/// The body of `url`, within [`MAX_FILE_BYTES`], asked with `headers`.
fn get(agent: &ureq::Agent, url: &str, headers: &[(&str, &str)]) -> Result<Vec<u8>, String> {
    let mut request = agent.get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = request.call().map_err(|e| match e {
        ureq::Error::StatusCode(404) => {
            "the server answered HTTP 404 (not found); check upstream_url_path in data/offer_sources.csv".into()
        }
        ureq::Error::StatusCode(status) => format!("the server answered HTTP {status}"),
        other => other.to_string(),
    })?;
    response.body_mut().with_config().limit(MAX_FILE_BYTES).read_to_vec().map_err(|e| match e {
        ureq::Error::BodyExceedsLimit(limit) => format!("larger than {limit} bytes, more than any catalog file"),
        other => other.to_string(),
    })
}

/// The last commit on the branch of `upstream` that touched its file, from
/// the commits API ("List commits", see [`GITHUB_API`]).
fn last_commit(
    agent: &ureq::Agent,
    api: &str,
    token: Option<&str>,
    upstream: &Upstream,
) -> Result<LastCommit, FetchError> {
    let at = &upstream.at;
    let url = format!(
        "{}/repos/{}/{}/commits?sha={}&path={}&per_page=1",
        api.trim_end_matches('/'),
        at.owner,
        at.repo,
        query_value(&at.reference),
        query_value(&at.path)
    );
    let failed = |message: String| FetchError::Download {
        url: url.clone(),
        sources: upstream.sources(),
        message: format!(
            "{message}; the refresh dates each source by the last commit that changed its file: retry later, or \
             give a mirror's BASE_URL (which keeps data/offer_sources.csv's commit and as_of)"
        ),
    };
    let authorization = token.map(|token| format!("Bearer {}", token.trim()));
    let mut headers = vec![("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", GITHUB_API_VERSION)];
    if let Some(authorization) = &authorization {
        headers.push(("Authorization", authorization));
    }
    let bytes = get(agent, &url, &headers).map_err(|message| {
        // GitHub answers 403 or 429 past its rate limit ("Rate limits for the REST API").
        if message.ends_with("HTTP 403") || message.ends_with("HTTP 429") {
            failed(format!(
                "{message} (GitHub's rate limit: 60 requests an hour without a token; set GITHUB_TOKEN{})",
                if token.is_some() { ", which was sent" } else { "" }
            ))
        } else {
            failed(message)
        }
    })?;
    parse_last_commit(&bytes).map_err(|message| failed(format!("{message} ({} on {})", at.path, at.reference)))
}

/// `sha` and committer date of the first commit of a "List commits" answer.
fn parse_last_commit(bytes: &[u8]) -> Result<LastCommit, String> {
    let answer: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("the answer is not JSON ({e})"))?;
    let Some(list) = answer.as_array() else {
        return Err("the answer is not a list of commits".into());
    };
    let Some(last) = list.first() else {
        return Err("no commit on the branch touches the file: it moved or was deleted upstream; correct \
                    upstream_url_path in data/offer_sources.csv"
            .into());
    };
    let sha = last["sha"].as_str().unwrap_or_default();
    if sha.len() != 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("\"{}\" is not a commit", sha.chars().take(60).collect::<String>()));
    }
    let when = last["commit"]["committer"]["date"].as_str().unwrap_or_default();
    let date = when.get(..10).filter(|date| is_iso_date(date)).ok_or_else(|| {
        format!("the commit's date \"{}\" is not ISO 8601", when.chars().take(40).collect::<String>())
    })?;
    Ok(LastCommit { sha: sha.to_ascii_lowercase(), date: date.to_string() })
}

/// `text` as a URL query value: RFC 3986's unreserved characters and `/`
/// (allowed in a query, §3.4) as they are, every other byte percent-encoded.
fn query_value(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Writes the offer files to build from and the manifest; nothing else
/// (the upstream files are named by URL, size and SHA-256).
fn stage(options: &FetchOptions<'_>, downloads: &[Download], staging: &Path) -> Result<Manifest, FetchError> {
    let fetched_at = utc_timestamp(SystemTime::now());
    std::fs::create_dir_all(staging).map_err(io(staging))?;
    for download in downloads {
        for (copy, content) in download.record.copies.iter().zip(&download.contents) {
            write_file(&staging.join(&copy.file), content.as_bytes())?;
        }
    }
    let manifest = Manifest {
        fetched_at,
        base_url: options.base_url.to_string(),
        files: downloads.iter().map(|download| download.record.clone()).collect(),
    };
    // Serializing plain structs of strings and numbers cannot fail.
    let mut json = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    json.push('\n');
    write_file(&staging.join(MANIFEST), json.as_bytes())?;
    Ok(manifest)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), FetchError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, bytes).map_err(io(path))
}

/// Fails when a source read fewer than 1/[`MIN_ROWS_DIVISOR`] of the rows
/// the last build read: the SUMMARY.md in `options.out`, or when there is
/// none, a build of `options.from` with the last build's offers.
fn check_rows_read(options: &FetchOptions<'_>, fetched: &Manifest, built: &Built) -> Result<(), FetchError> {
    let summary_path = options.out.join("SUMMARY.md");
    let last = std::fs::read_to_string(&summary_path).ok().map(|text| rows_read(&text)).filter(|rows| !rows.is_empty());
    let (last, last_build) = match last {
        Some(rows) => (rows, summary_path.display().to_string()),
        None => {
            let offers = last_offers(options);
            let built = build_with(options.from, Some(offers))?;
            (
                rows_read(&built.summary),
                format!("a build of {} with the offers of {}", options.from.display(), offers.display()),
            )
        }
    };
    for (source, rows) in rows_read(&built.summary) {
        let Some(&before) = last.get(&source) else { continue };
        if rows * MIN_ROWS_DIVISOR < before {
            let url = fetched
                .files
                .iter()
                .find(|file| file.copies.iter().any(|copy| copy.source == source))
                .map(|file| file.url.clone())
                .unwrap_or_default();
            return Err(FetchError::Check {
                url,
                source,
                message: format!(
                    "{rows} rows read, under 1/{MIN_ROWS_DIVISOR} of the {before} of the last build ({last_build}): \
                     the download was probably cut short; if upstream really dropped them, rebuild the snapshot once \
                     from offer files that hold the new file (`whichgpu snapshot --offers DIR`), so the next \
                     refresh compares with it"
                ),
            });
        }
    }
    Ok(())
}

/// Rows read per source, from the "## Sources" table of a SUMMARY.md
/// (`summary::render`): `| id | rows read | upstream | commit | as of |`.
fn rows_read(summary: &str) -> BTreeMap<String, usize> {
    summary
        .lines()
        .skip_while(|line| *line != "## Sources")
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| {
            let mut cells = line.trim_matches('|').split('|').map(str::trim);
            let source = cells.next()?.to_string();
            let rows = cells.next()?.parse().ok()?;
            Some((source, rows))
        })
        .collect()
}

/// `YYYY-MM-DDTHH:MM:SSZ` for a time on or after 1970 (UTC).
fn utc_timestamp(time: SystemTime) -> String {
    let seconds = time.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_secs();
    let (days, of_day) = (seconds / SECONDS_PER_DAY, seconds % SECONDS_PER_DAY);
    let date = crate::engine::freshness::date_of(days as i64);
    format!("{date}T{:02}:{:02}:{:02}Z", of_day / 3600, of_day % 3600 / 60, of_day % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(cells: &[&str]) -> csv::StringRecord {
        csv::StringRecord::from(cells.to_vec())
    }

    #[test]
    fn row_filters_keep_what_offer_sources_csv_says() {
        let columns: Vec<String> = ["InstanceType", "AcceleratorName"].map(String::from).to_vec();
        // data/offer_sources.csv, skypilot-v8-gcp: hosts by family, accelerators by name.
        let gcp = RowFilter::parse("InstanceType^a2-|g2-standard- or AcceleratorName=A100|L4").unwrap();
        let at = gcp.bind(&columns).unwrap();
        for (cells, kept) in [
            (["a2-highgpu-1g", ""], true),
            (["g2-standard-4", ""], true),
            (["", "A100"], true),
            (["", "A100-80GB"], false),
            (["n1-standard-8", ""], false),
            (["", "tpu-v4-8"], false),
        ] {
            assert_eq!(gcp.keeps(&at, &record(&cells)), kept, "{cells:?}");
        }
        // skypilot-v8-runpod: the rows with a GPU.
        let gpu_rows = RowFilter::parse("AcceleratorName!=").unwrap();
        let at = gpu_rows.bind(&columns).unwrap();
        assert!(gpu_rows.keeps(&at, &record(&["1x_H100_SECURE", " H100 "])));
        assert!(!gpu_rows.keeps(&at, &record(&["cpu3c-2-4", " "])));
    }

    #[test]
    fn a_row_filter_that_cannot_be_read_is_refused_with_the_syntax() {
        for text in ["InstanceType", "^p", "InstanceType^", "InstanceType^p|"] {
            let message = RowFilter::parse(text).unwrap_err();
            assert!(message.contains("Column^prefix"), "{text}: {message}");
        }
        let message = RowFilter::parse("Family^p").unwrap().bind(&["InstanceType".to_string()]).unwrap_err();
        assert!(message.contains("\"Family\""), "{message}");
    }

    #[test]
    fn a_filtered_copy_keeps_the_upstream_bytes_of_the_rows_it_keeps() {
        // CRLF endings, a quoted cell over two lines, no final newline.
        let text = "InstanceType,GpuInfo\r\np3.2xlarge,\"{'Name':\r\n 'V100'}\"\r\ng5.xlarge,x\r\np4d.24xlarge,y";
        let file = CsvFile::parse(text).unwrap();
        assert_eq!(file.rows.len(), 3);
        let (copy, rows) = file.copy(Some(&RowFilter::parse("InstanceType^p").unwrap())).unwrap();
        assert_eq!(rows, 2);
        assert_eq!(copy, "InstanceType,GpuInfo\r\np3.2xlarge,\"{'Name':\r\n 'V100'}\"\r\np4d.24xlarge,y\r\n");
        assert_eq!(file.copy(None).unwrap(), (text.to_string(), 3));
    }

    #[test]
    fn a_file_cut_inside_a_row_or_left_without_rows_is_refused() {
        let message = CsvFile::parse("A,B,C\n1,2,3\n4,5").err().unwrap();
        assert!(message.contains("cut short"), "{message}");
        assert!(CsvFile::parse("A,B,C\n").err().unwrap().contains("no rows"));
    }

    #[test]
    fn upstream_paths_name_owner_repository_branch_and_file() {
        let at = UpstreamPath::parse("skypilot-org/skypilot-catalog/master/catalogs/v8/aws/vms.csv").unwrap();
        assert_eq!(at.repository(), "skypilot-org/skypilot-catalog");
        assert_eq!(at.path, "catalogs/v8/aws/vms.csv");
        assert_eq!(
            at.url("https://raw.githubusercontent.com/", None),
            "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8/aws/vms.csv"
        );
        assert!(at
            .url("http://127.0.0.1:9", Some("e385a0d3"))
            .ends_with("skypilot-catalog/e385a0d3/catalogs/v8/aws/vms.csv"));
        assert!(UpstreamPath::parse("skypilot-org/skypilot-catalog/master").is_none());
    }

    #[test]
    fn the_last_commit_and_its_date_are_read_from_a_list_commits_answer() {
        // The shape of GitHub's "List commits" answer, cut to what is read.
        let answer = br#"[{"sha": "E385A0D348EDA9CEFD9806423E7725944DC249E4",
            "commit": {"author": {"date": "2026-08-30T23:00:00Z"}, "committer": {"date": "2026-09-01T01:02:03Z"}}}]"#;
        let last = parse_last_commit(answer).unwrap();
        assert_eq!(last.sha, "e385a0d348eda9cefd9806423e7725944dc249e4");
        assert_eq!(last.date, "2026-09-01", "the committer's date: when it reached the branch");
        for (answer, expected) in [
            (&b"[]"[..], "no commit on the branch touches the file"),
            (b"{\"message\": \"Not Found\"}", "not a list of commits"),
            (b"<html>", "not JSON"),
            (
                br#"[{"sha": "main", "commit": {"committer": {"date": "2026-09-01T00:00:00Z"}}}]"#,
                "\"main\" is not a commit",
            ),
            (br#"[{"sha": "0123456789abcdef0123456789abcdef01234567", "commit": {}}]"#, "is not ISO 8601"),
        ] {
            let message = parse_last_commit(answer).err().unwrap();
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn query_values_keep_slashes_and_escape_the_rest() {
        assert_eq!(query_value("catalogs/v8/aws/vms.csv"), "catalogs/v8/aws/vms.csv");
        assert_eq!(query_value("docs/cloud gpus&more?.csv"), "docs/cloud%20gpus%26more%3F.csv");
        assert_eq!(query_value("é"), "%C3%A9");
    }

    #[test]
    fn every_source_says_where_upstream_it_comes_from() {
        let plan = plan().unwrap();
        let copies: usize = plan.iter().map(|upstream| upstream.copies.len()).sum();
        // 31 local files; AWS's three and GCP's two come from one file each.
        assert_eq!(copies, 31);
        assert_eq!(plan.len(), 28);
        let aws = plan.iter().find(|u| u.at.path == "catalogs/v8/aws/vms.csv").unwrap();
        assert_eq!(aws.sources(), "skypilot-v8-aws-p, skypilot-v8-aws-g, skypilot-v8-aws-inf-trn-dl1");
    }

    #[test]
    fn the_last_builds_rows_are_read_from_its_summary() {
        let summary = "## Offers per provider\n\n| provider | offers |\n|---|---:|\n| aws | 3 |\n\n\
            ## Sources\n\n| id | rows read | upstream | commit | as of |\n|---|---:|---|---|---|\n\
            | skypilot-v8-aws-p | 208 | skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv (p-family rows) | e385a0d | 2026-09 |\n\
            | fsdl | 203 | the-full-stack/website docs/cloud-gpus/cloud-gpus.csv | 06e6b73 | about 2023 (undated) |\n\n\
            ## Rows not turned into offers\n\n| source | reason | rows |\n|---|---|---:|\n| fsdl | cloud covered | 158 |\n";
        let rows = rows_read(summary);
        assert_eq!(rows, BTreeMap::from([("fsdl".to_string(), 203), ("skypilot-v8-aws-p".to_string(), 208)]));
    }

    #[test]
    fn fetch_dates_are_utc_calendar_dates() {
        let at = |seconds: u64| utc_timestamp(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_704_067_199), "2023-12-31T23:59:59Z");
        assert_eq!(at(4_102_444_800), "2100-01-01T00:00:00Z");
    }
}
