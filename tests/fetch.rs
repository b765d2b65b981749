//! `whichgpu snapshot --fetch` against a loopback server that serves a copy
//! of `../shared/data/offers/` laid out by upstream paths
//! (`upstream_url_path` in data/offer_sources.csv).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

/// Upstream path → bytes.
type Files = BTreeMap<String, Vec<u8>>;

fn whichgpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_whichgpu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run whichgpu")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("whichgpu-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// What upstream would serve: each `upstream_url_path` of
/// data/offer_sources.csv holds the local files made from it, one after
/// another under their shared header (AWS's three extracts are rows of one
/// `vms.csv`, GCP's two of another).
fn upstream_copy() -> Files {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/offer_sources.csv");
    let mut reader = csv::Reader::from_path(sources).unwrap();
    let mut files = Files::new();
    for row in reader.deserialize::<BTreeMap<String, String>>() {
        let row = row.unwrap();
        for file in row["file"].split(';') {
            let text = std::fs::read(shared_data().join(file)).unwrap();
            match files.get_mut(&row["upstream_url_path"]) {
                None => {
                    files.insert(row["upstream_url_path"].clone(), text);
                }
                Some(upstream) => {
                    let header_end = text.iter().position(|&b| b == b'\n').unwrap() + 1;
                    assert!(upstream.starts_with(&text[..header_end]), "{file} has another header");
                    upstream.extend_from_slice(&text[header_end..]);
                }
            }
        }
    }
    files
}

/// Serves `files` at `http://127.0.0.1:PORT/{path}` (404 for any other
/// path) until the test ends; returns the base URL.
fn serve(files: Files) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let files = Arc::new(files);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let files = Arc::clone(&files);
            std::thread::spawn(move || answer(stream, &files));
        }
    });
    base
}

fn answer(mut stream: TcpStream, files: &Files) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header == "\r\n" => break,
            Ok(_) => {}
        }
    }
    let path = request.split(' ').nth(1).unwrap_or("/").trim_start_matches('/');
    let (status, body) = match files.get(path) {
        Some(body) => ("200 OK", body.as_slice()),
        None => ("404 Not Found", &b"404: Not Found"[..]),
    };
    let head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body));
}

fn build_from(data: &Path, out: &Path) {
    let output = whichgpu(&["snapshot", "--from", data.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
}

fn fetch(base: &str, out: &Path, keep: &Path) -> Output {
    let data = shared_data();
    whichgpu(&[
        "snapshot",
        "--fetch",
        base,
        "--from",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--keep",
        keep.to_str().unwrap(),
    ])
}

const SNAPSHOT_FILES: [&str; 3] = ["offers.json", "catalog.json", "SUMMARY.md"];

fn snapshot_files(dir: &Path) -> Vec<Vec<u8>> {
    SNAPSHOT_FILES.iter().map(|file| std::fs::read(dir.join(file)).unwrap()).collect()
}

#[test]
fn a_fetched_build_equals_the_build_from_the_same_files_byte_for_byte() {
    let dir = scratch("equal");
    let base = serve(upstream_copy());
    build_from(&shared_data(), &dir.join("from"));
    // Into an empty directory: the last build's rows come from --from.
    let output = fetch(&base, &dir.join("fetched"), &dir.join("keep"));
    assert!(output.status.success(), "{}", stderr(&output));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("fetched 28 files") && said.contains("offers from"), "{said}");
    for (file, (fetched, from)) in
        SNAPSHOT_FILES.iter().zip(snapshot_files(&dir.join("fetched")).iter().zip(&snapshot_files(&dir.join("from"))))
    {
        // Compared as booleans: a failing assert_eq! would print megabytes.
        assert!(fetched == from, "{file} differs between --fetch and --from");
    }

    // The kept tree names what was fetched, and rebuilds the same snapshot.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("keep/FETCHED.json")).unwrap()).unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 28);
    let aws = files.iter().find(|f| f["path"] == "catalogs/v8/aws/vms.csv").unwrap();
    assert_eq!(aws["url"], format!("{base}/skypilot-org/skypilot-catalog/master/catalogs/v8/aws/vms.csv"));
    assert_eq!(aws["ref"], "master");
    assert!(aws["commit"].is_null(), "a mirror names no commit");
    assert_eq!(aws["rows"], 208 + 1510 + 341);
    assert_eq!(aws["sha256"].as_str().unwrap().len(), 64);
    let kept = std::fs::read(dir.join("keep").join(aws["kept_as"].as_str().unwrap())).unwrap();
    assert_eq!(kept.len() as u64, aws["bytes"].as_u64().unwrap());
    let p_family = &aws["copies"][0];
    assert_eq!((p_family["source"].as_str(), p_family["rows"].as_u64()), (Some("skypilot-v8-aws-p"), Some(208)));
    assert!(manifest["fetched_at"].as_str().unwrap().ends_with('Z'));
    build_from(&dir.join("keep"), &dir.join("rebuilt"));
    assert!(snapshot_files(&dir.join("rebuilt")) == snapshot_files(&dir.join("from")), "the kept tree rebuilds it");

    // A second refresh replaces the tree it kept.
    let output = fetch(&base, &dir.join("fetched"), &dir.join("keep"));
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs a refresh against `files` over a snapshot built from the shared
/// data; it must fail naming each of `expected`, and leave the snapshot and
/// the kept tree as they were.
fn assert_refresh_fails(name: &str, files: Files, expected: &[&str]) {
    let dir = scratch(name);
    let (out, keep) = (dir.join("out"), dir.join("keep"));
    build_from(&shared_data(), &out);
    let before = snapshot_files(&out);
    let output = fetch(&serve(files), &out, &keep);
    assert!(!output.status.success(), "{name}: the refresh succeeded");
    let message = stderr(&output);
    for words in expected {
        assert!(message.contains(words), "{name}: \"{words}\" not in {message}");
    }
    assert!(message.contains("unchanged"), "{message}");
    assert!(snapshot_files(&out) == before, "{name}: the snapshot changed");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["out"], "{name}: nothing is kept, no staging is left");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), SNAPSHOT_FILES.len(), "{name}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const RUNPOD: &str = "skypilot-org/skypilot-catalog/master/catalogs/v8/runpod/vms.csv";
const LAMBDA: &str = "skypilot-org/skypilot-catalog/master/catalogs/v8/lambda/vms.csv";

#[test]
fn a_truncated_upstream_file_fails_the_refresh_and_keeps_the_snapshot() {
    // Cut after a row: it parses, but holds under half the rows the last build read.
    let mut files = upstream_copy();
    let runpod = files.get_mut(RUNPOD).unwrap();
    let lines: Vec<&[u8]> = runpod.split_inclusive(|&b| b == b'\n').collect();
    *runpod = lines[..lines.len() / 2].concat();
    assert_refresh_fails("cut-after-a-row", files, &["skypilot-v8-runpod", "2562 rows read", "5125", RUNPOD]);

    // Cut inside a row, after its first cell: the row is short of cells.
    let mut files = upstream_copy();
    let lambda = files.get_mut(LAMBDA).unwrap();
    let row_start = lambda.len() / 2 + lambda[lambda.len() / 2..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let first_cell = lambda[row_start..].iter().position(|&b| b == b',').unwrap();
    lambda.truncate(row_start + first_cell + 1);
    assert_refresh_fails("cut-inside-a-row", files, &["skypilot-v8-lambda", LAMBDA, "cut short"]);
}

#[test]
fn a_changed_header_fails_the_refresh_and_keeps_the_snapshot() {
    let mut files = upstream_copy();
    let lambda = String::from_utf8(files[LAMBDA].clone()).unwrap();
    assert!(lambda.starts_with("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,"));
    files.insert(LAMBDA.to_string(), lambda.replacen(",Price,", ",PriceUSD,", 1).into_bytes());
    assert_refresh_fails("changed-header", files, &["skypilot-v8-lambda", LAMBDA, "lost column(s) Price"]);
}

#[test]
fn a_missing_upstream_file_fails_the_refresh_and_keeps_the_snapshot() {
    let mut files = upstream_copy();
    files.remove(LAMBDA);
    assert_refresh_fails("not-found", files, &["skypilot-v8-lambda", LAMBDA, "HTTP 404"]);
}

#[test]
fn a_branch_is_pinned_to_the_commit_the_commits_api_names() {
    // As GitHub answers: /repos/{owner}/{repo}/commits/{ref} gives the
    // commit, and raw files are read at it.
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let mut files = Files::new();
    for (path, bytes) in upstream_copy() {
        let mut parts = path.splitn(4, '/');
        let (owner, repo, branch, file) =
            (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        files.insert(format!("repos/{owner}/{repo}/commits/{branch}"), format!("{commit}\n").into_bytes());
        files.insert(format!("{owner}/{repo}/{commit}/{file}"), bytes);
    }
    let base = serve(files);
    let dir = scratch("commit");
    let options = whichgpu::snapshot_builder::fetch::FetchOptions {
        base_url: &base,
        commits_api: Some(&base),
        from: &shared_data(),
        out: &dir.join("out"),
        keep: &dir.join("keep"),
    };
    let refreshed = whichgpu::snapshot_builder::fetch::refresh(&options).unwrap();
    for file in &refreshed.manifest.files {
        assert_eq!(file.commit.as_deref(), Some(commit), "{}", file.path);
        assert!(file.url.contains(&format!("/{commit}/")), "{}", file.url);
    }
    let kept = std::fs::read_to_string(dir.join("keep/FETCHED.json")).unwrap();
    assert!(kept.contains(&format!("\"commit\": \"{commit}\"")), "{kept}");
    std::fs::remove_dir_all(&dir).unwrap();
}
