//! `whichgpu snapshot --fetch`: a live refresh. Downloads the upstream file
//! each row of `data/offer_sources.csv` names (`upstream_url_path`), keeps
//! the rows its local copy holds (`upstream_rows`), checks each file
//! against the last build, and builds the snapshot from them exactly as
//! `--from` does.
//!
//! Nothing in the output directory changes unless every file downloads,
//! passes its checks and the snapshot builds. What was fetched is kept as a
//! data tree that `--from` rebuilds byte for byte, with [`MANIFEST`] at its
//! root: each file's URL, commit, size, SHA-256, rows and the fetch date.

use super::csv_table::CsvTable;
use super::{build, write as write_snapshot, BuildError, Built, OFFER_SOURCES_CSV};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where `--fetch` reads by default: GitHub's raw file host, whose paths
/// are `{owner}/{repo}/{ref}/{path}` as `upstream_url_path` is written.
pub const DEFAULT_BASE_URL: &str = "https://raw.githubusercontent.com";

/// GitHub's REST API: "Get a commit" (`/repos/{owner}/{repo}/commits/{ref}`)
/// with the `application/vnd.github.sha` media type answers the commit a
/// branch points at, as 40 hex digits.
const GITHUB_API: &str = "https://api.github.com";

/// The manifest at the root of the kept tree.
pub const MANIFEST: &str = "FETCHED.json";

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
    /// An API that names the commit a branch points at
    /// ([`commits_api_for`]); `None` fetches each ref as named and records
    /// no commit.
    pub commits_api: Option<&'a str>,
    /// The data tree (a copy of `../shared/data`) the inputs that are not
    /// fetched come from (gpus.csv, models.csv, providers.csv, …), and whose
    /// offer files' headers the fetched ones must keep.
    pub from: &'a Path,
    /// The snapshot directory: its SUMMARY.md holds the last build's rows.
    pub out: &'a Path,
    /// Where the fetched data tree and [`MANIFEST`] are kept.
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

/// What was fetched (`FETCHED.json`).
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// UTC, from the system clock, when the downloads started.
    pub fetched_at: String,
    pub base_url: String,
    pub files: Vec<FetchedFile>,
}

/// One upstream file as it was downloaded.
#[derive(Debug, Clone, Serialize)]
pub struct FetchedFile {
    pub url: String,
    /// `owner/repo`.
    pub repository: String,
    /// The branch `data/offer_sources.csv` names.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The commit the branch pointed at, when the commits API was asked.
    pub commit: Option<String>,
    pub path: String,
    /// Where the bytes below are in the kept tree.
    pub kept_as: String,
    pub bytes: usize,
    pub sha256: String,
    /// Data rows of a CSV file (the header not counted).
    pub rows: Option<usize>,
    /// The local files made from it.
    pub copies: Vec<CopyRecord>,
}

/// One local file made from an upstream file.
#[derive(Debug, Clone, Serialize)]
pub struct CopyRecord {
    pub source: String,
    pub file: String,
    /// `upstream_rows`: which rows it keeps; absent for the whole file.
    pub upstream_rows: Option<String>,
    pub rows: Option<usize>,
}

/// Why a refresh stopped. The snapshot directory is untouched in every case.
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

/// Downloads, checks, keeps and builds; replaces the snapshot in
/// `options.out` only when all of it succeeds.
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
    let Some(keep_name) = options.keep.file_name() else {
        return Err(FetchError::Io {
            path: options.keep.to_path_buf(),
            message: "--keep must name a directory".into(),
        });
    };
    let mut staging_name = keep_name.to_os_string();
    staging_name.push(format!(".fetching-{}", std::process::id()));
    let staging = options.keep.with_file_name(staging_name);

    let downloads = download_all(options, &plan)?;
    let staged = stage(options, &downloads, &staging).and_then(|manifest| {
        let built = build(&staging)?;
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

    // Every check passed: the kept tree, then the snapshot's files.
    if options.keep.exists() {
        std::fs::remove_dir_all(options.keep).map_err(io(options.keep))?;
    }
    std::fs::rename(&staging, options.keep).map_err(io(options.keep))?;
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

/// Where an upstream file lives: `{owner}/{repo}/{ref}/{path}`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct UpstreamPath {
    owner: String,
    repo: String,
    reference: String,
    path: String,
}

impl UpstreamPath {
    fn parse(text: &str) -> Option<UpstreamPath> {
        let mut parts = text.splitn(4, '/').map(str::trim).filter(|part| !part.is_empty()).map(str::to_string);
        let (owner, repo, reference, path) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        Some(UpstreamPath { owner, repo, reference, path })
    }

    fn repository(&self) -> String {
        format!("{}/{}", self.owner, self.repo)
    }

    /// The file's URL under `base`, at `commit` when known, else at its ref.
    fn url(&self, base: &str, commit: Option<&str>) -> String {
        let at = commit.unwrap_or(&self.reference);
        format!("{}/{}/{}/{at}/{}", base.trim_end_matches('/'), self.owner, self.repo, self.path)
    }
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
    bytes: Vec<u8>,
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

fn download_all(options: &FetchOptions<'_>, plan: &[Upstream]) -> Result<Vec<Download>, FetchError> {
    let agent: ureq::Agent = ureq::Agent::config_builder().timeout_global(Some(TIMEOUT)).build().into();
    // (repository, branch) → commit, asked once per repository.
    let mut commits: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut downloads = Vec::new();
    for upstream in plan {
        let at = &upstream.at;
        let commit = match options.commits_api {
            Some(api) => {
                let key = (at.repository(), at.reference.clone());
                let commit = match commits.get(&key) {
                    Some(commit) => commit.clone(),
                    None => resolve_commit(&agent, api, at)?,
                };
                commits.insert(key, commit.clone());
                Some(commit)
            }
            None => None,
        };
        let url = at.url(options.base_url, commit.as_deref());
        let bytes = get(&agent, &url, None).map_err(|message| FetchError::Download {
            url: url.clone(),
            sources: upstream.sources(),
            message,
        })?;
        let copies = make_copies(options, upstream, &url, &bytes)?;
        // A whole-file copy is the upstream file; filtered ones are kept
        // beside the bytes they came from.
        let kept_as = match upstream.copies.iter().find(|copy| copy.rows.is_none()) {
            Some(whole) => whole.file.clone(),
            None => format!("upstream/{}/{}", at.repository(), at.path),
        };
        let record = FetchedFile {
            url,
            repository: at.repository(),
            reference: at.reference.clone(),
            commit,
            path: at.path.clone(),
            kept_as,
            bytes: bytes.len(),
            sha256: Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect(),
            rows: copies.rows,
            copies: copies.records,
        };
        downloads.push(Download { record, bytes, contents: copies.contents });
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
                let base_copy = options.from.join(&copy.file);
                if let Some(expected) = columns_of(&base_copy)? {
                    let missing = csv_file.missing(&expected);
                    if !missing.is_empty() {
                        return Err(failed(format!(
                            "the header lost column(s) {} that {} has: the reader reads cells by name, so their \
                             data would go missing; adapt the reader before refreshing (header now: {})",
                            missing.join(", "),
                            base_copy.display(),
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

/// The columns of a CSV file in the base tree, or `None` when it has no
/// such file (a source new to `data/offer_sources.csv`).
fn columns_of(path: &Path) -> Result<Option<Vec<String>>, FetchError> {
    if !path.is_file() {
        return Ok(None);
    }
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| FetchError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    let headers = reader.headers().map_err(|e| FetchError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    Ok(Some(headers.iter().map(|name| name.trim().to_string()).collect()))
}

/// The body of `url`, within [`MAX_FILE_BYTES`].
fn get(agent: &ureq::Agent, url: &str, accept: Option<&str>) -> Result<Vec<u8>, String> {
    let mut request = agent.get(url);
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
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

/// The commit `at`'s branch points at, from the commits API.
fn resolve_commit(agent: &ureq::Agent, api: &str, at: &UpstreamPath) -> Result<String, FetchError> {
    let url = format!("{}/repos/{}/{}/commits/{}", api.trim_end_matches('/'), at.owner, at.repo, at.reference);
    let failed = |message: String| FetchError::Download {
        url: url.clone(),
        sources: at.repository(),
        message: format!(
            "{message}; the refresh records the commit it reads: retry later, or give a mirror's BASE_URL"
        ),
    };
    let bytes = get(agent, &url, Some("application/vnd.github.sha")).map_err(failed)?;
    let sha = String::from_utf8_lossy(&bytes).trim().to_string();
    if sha.len() != 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(failed(format!("answered \"{}\", not a commit", sha.chars().take(60).collect::<String>())));
    }
    Ok(sha)
}

/// Writes the data tree to build from: `options.from` with the fetched
/// files over it, the raw upstream files that were filtered, and the
/// manifest.
fn stage(options: &FetchOptions<'_>, downloads: &[Download], staging: &Path) -> Result<Manifest, FetchError> {
    let fetched_at = utc_timestamp(SystemTime::now());
    // A kept tree given as --from brings its own upstream copies and manifest.
    copy_tree(options.from, staging, &["upstream", MANIFEST])?;
    for download in downloads {
        for (copy, content) in download.record.copies.iter().zip(&download.contents) {
            write_file(&staging.join(&copy.file), content.as_bytes())?;
        }
        if download.record.kept_as.starts_with("upstream/") {
            write_file(&staging.join(&download.record.kept_as), &download.bytes)?;
        }
    }
    let manifest = Manifest {
        fetched_at,
        base_url: options.base_url.to_string(),
        files: downloads.iter().map(|download| download.record.clone()).collect(),
    };
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

/// Copies a directory's files (as new, writable files), leaving out the
/// top-level entries named in `skip`.
fn copy_tree(from: &Path, to: &Path, skip: &[&str]) -> Result<(), FetchError> {
    std::fs::create_dir_all(to).map_err(io(to))?;
    for entry in std::fs::read_dir(from).map_err(io(from))? {
        let entry = entry.map_err(io(from))?;
        if skip.iter().any(|name| entry.file_name() == *name) {
            continue;
        }
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_tree(&source, &target, &[])?;
        } else {
            let bytes = std::fs::read(&source).map_err(io(&source))?;
            std::fs::write(&target, bytes).map_err(io(&target))?;
        }
    }
    Ok(())
}

/// Fails when a source read fewer than 1/[`MIN_ROWS_DIVISOR`] of the rows
/// the last build read: the SUMMARY.md in `options.out`, or when there is
/// none, a build of `options.from`.
fn check_rows_read(options: &FetchOptions<'_>, fetched: &Manifest, built: &Built) -> Result<(), FetchError> {
    let summary_path = options.out.join("SUMMARY.md");
    let last = std::fs::read_to_string(&summary_path).ok().map(|text| rows_read(&text)).filter(|rows| !rows.is_empty());
    let (last, last_build) = match last {
        Some(rows) => (rows, summary_path.display().to_string()),
        None => (rows_read(&build(options.from)?.summary), format!("a build of {}", options.from.display())),
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
                     the download was probably cut short; if upstream really dropped them, build once with --from \
                     from a copy of the data holding the new file, so the next refresh compares with it"
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
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_date(days);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", of_day / 3600, of_day % 3600 / 60, of_day % 60)
}

/// The proleptic Gregorian date `days` after 1970-01-01: Howard Hinnant's
/// `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms"), for
/// non-negative days. Eras are 400 years, 146,097 days; years run from
/// March so the leap day ends them.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // 719,468 days from 0000-03-01 to 1970-01-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
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
