//! `whichgpu snapshot --fetch` against a loopback server that serves a copy
//! of `../shared/data/offers/` laid out by upstream paths
//! (`upstream_url_path` in data/offer_sources.csv), and, as GitHub's API
//! would, the last commit that touched each file.
#![cfg(not(target_arch = "wasm32"))]

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use whichgpu::snapshot_builder::fetch::{refresh, FetchOptions};

/// Upstream path (with its query, if any) → bytes.
type Files = BTreeMap<String, Vec<u8>>;

/// Runs the CLI in `dir`: the repository's root unless a test says where.
fn whichgpu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_whichgpu")).args(args).current_dir(dir).output().expect("run whichgpu")
}

fn whichgpu(args: &[&str]) -> Output {
    whichgpu_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("whichgpu-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// data/offer_sources.csv's rows, as column → cell.
fn offer_sources() -> Vec<BTreeMap<String, String>> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/offer_sources.csv");
    csv::Reader::from_path(sources).unwrap().deserialize().map(Result::unwrap).collect()
}

/// What upstream would serve: each `upstream_url_path` of
/// data/offer_sources.csv holds the local files made from it, one after
/// another under their shared header (AWS's three extracts are rows of one
/// `vms.csv`, GCP's two of another).
fn upstream_copy() -> Files {
    let mut files = Files::new();
    for row in offer_sources() {
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
/// path) until the test ends; returns the base URL. With `api_token`, the
/// API's paths (`repos/…`) answer 401 to a request without it, as GitHub
/// does to a bad token.
fn serve(files: Files, api_token: Option<&str>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let files = Arc::new(files);
    let authorization = Arc::new(api_token.map(|token| format!("Bearer {token}")));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (files, authorization) = (Arc::clone(&files), Arc::clone(&authorization));
            std::thread::spawn(move || answer(stream, &files, authorization.as_deref()));
        }
    });
    base
}

fn answer(mut stream: TcpStream, files: &Files, authorization: Option<&str>) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut authorized = authorization.is_none();
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header == "\r\n" => break,
            Ok(_) => {
                if let Some((name, value)) = header.split_once(':') {
                    authorized |= name.eq_ignore_ascii_case("authorization") && Some(value.trim()) == authorization;
                }
            }
        }
    }
    let path = request.split(' ').nth(1).unwrap_or("/").trim_start_matches('/');
    let (status, body) = match files.get(path) {
        Some(_) if path.starts_with("repos/") && !authorized => ("401 Unauthorized", &b"Bad credentials"[..]),
        Some(body) => ("200 OK", body.as_slice()),
        None => ("404 Not Found", &b"404: Not Found"[..]),
    };
    let head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body));
}

/// `snapshot --from ../shared/data` with the shared data's own offer files,
/// whatever the repository keeps in data/fetched.
fn build_from_shared_data(out: &Path) {
    let data = shared_data();
    let output = whichgpu(&["snapshot", "--from", text(&data), "--offers", text(&data), "--out", text(out)]);
    assert!(output.status.success(), "{}", stderr(&output));
}

fn fetch(base: &str, out: &Path, keep: &Path) -> Output {
    let data = shared_data();
    whichgpu(&["snapshot", "--fetch", base, "--from", text(&data), "--out", text(out), "--keep", text(keep)])
}

const SNAPSHOT_FILES: [&str; 3] = ["offers.json", "catalog.json", "SUMMARY.md"];

fn snapshot_files(dir: &Path) -> Vec<Vec<u8>> {
    SNAPSHOT_FILES.iter().map(|file| std::fs::read(dir.join(file)).unwrap()).collect()
}

/// Every file under `dir`, by its path relative to `dir` (`/`-separated).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let name = path.strip_prefix(root).unwrap().components().map(|c| c.as_os_str().to_str().unwrap());
                files.insert(name.collect::<Vec<_>>().join("/"), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    files
}

fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const AWS: &str = "skypilot-org/skypilot-catalog/master/catalogs/v8/aws/vms.csv";
const RUNPOD: &str = "skypilot-org/skypilot-catalog/master/catalogs/v8/runpod/vms.csv";
const LAMBDA: &str = "skypilot-org/skypilot-catalog/master/catalogs/v8/lambda/vms.csv";

#[test]
fn a_mirror_fetch_equals_the_build_from_the_same_files_byte_for_byte() {
    let dir = scratch("equal");
    let upstream = upstream_copy();
    let base = serve(upstream.clone(), None);
    let (from, fetched, keep) = (dir.join("from"), dir.join("fetched"), dir.join("keep"));
    build_from_shared_data(&from);
    // Into an empty directory: the last build's rows come from --from.
    let output = fetch(&base, &fetched, &keep);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(
        said.contains("fetched 28 files") && said.contains(&format!("(offer files from {})", keep.display())),
        "{said}"
    );
    for (file, (fetched, from)) in
        SNAPSHOT_FILES.iter().zip(snapshot_files(&fetched).iter().zip(&snapshot_files(&from)))
    {
        // Compared as booleans: a failing assert_eq! would print megabytes.
        assert!(fetched == from, "{file} differs between --fetch and --from: a mirror keeps the sources' dates");
    }

    // The kept tree holds the offer files data/offer_sources.csv names, as
    // the shared data holds them, and the manifest: nothing else.
    let kept = tree(&keep);
    let mut expected: BTreeSet<String> =
        offer_sources().iter().flat_map(|row| row["file"].split(';').map(str::to_string).collect::<Vec<_>>()).collect();
    assert_eq!(expected.len(), 31);
    assert!(expected.iter().all(|file| file.starts_with("offers/")));
    expected.insert("FETCHED.json".to_string());
    assert_eq!(kept.keys().cloned().collect::<BTreeSet<_>>(), expected);
    for (file, bytes) in &kept {
        if file != "FETCHED.json" {
            assert!(
                *bytes == std::fs::read(shared_data().join(file)).unwrap(),
                "{file} differs from the shared data's"
            );
        }
    }

    // The manifest names each upstream file, which is not kept.
    let manifest = json(&keep.join("FETCHED.json"));
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 28);
    let aws = files.iter().find(|f| f["path"] == "catalogs/v8/aws/vms.csv").unwrap();
    assert_eq!(aws["url"], format!("{base}/{AWS}"));
    assert_eq!(aws["ref"], "master");
    assert!(aws["commit"].is_null() && aws["commit_date"].is_null(), "a mirror names no commit: {aws}");
    assert_eq!(aws["rows"], 208 + 1510 + 341);
    assert_eq!(aws["bytes"].as_u64(), Some(upstream[AWS].len() as u64));
    let sha256: String = Sha256::digest(&upstream[AWS]).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(aws["sha256"], sha256);
    let p_family = &aws["copies"][0];
    assert_eq!(p_family["source"], "skypilot-v8-aws-p");
    assert_eq!(p_family["file"], "offers/skypilot_v8/aws_vms_p_family_gpu.csv");
    assert_eq!((p_family["upstream_rows"].as_str(), p_family["rows"].as_u64()), (Some("InstanceType^p"), Some(208)));
    assert!(manifest["fetched_at"].as_str().unwrap().ends_with('Z'));

    // `--offers` rebuilds the fetched snapshot from the kept tree.
    let data = shared_data();
    let rebuilt = dir.join("rebuilt");
    let output = whichgpu(&["snapshot", "--from", text(&data), "--offers", text(&keep), "--out", text(&rebuilt)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(&format!("(offer files from {})", keep.display())), "{}", stdout(&output));
    assert!(snapshot_files(&rebuilt) == snapshot_files(&fetched), "the kept tree rebuilds the fetched snapshot");

    // A second refresh replaces the tree it kept, and leaves nothing beside it.
    let output = fetch(&base, &fetched, &keep);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(entries(&dir), ["fetched", "from", "keep", "rebuilt"].map(String::from).into());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn each_source_is_dated_by_the_last_commit_that_changed_its_file() {
    // As GitHub answers "List commits" for ?sha={branch}&path={file}&per_page=1;
    // raw files are then read at that commit (the branch's paths are not served).
    let lambda_commit = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
    let other_commit = "0123456789abcdef0123456789abcdef01234567";
    let mut files = Files::new();
    for (path, bytes) in upstream_copy() {
        let mut parts = path.splitn(4, '/');
        let (owner, repo, branch, file) =
            (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let (commit, date) = if path == LAMBDA {
            (lambda_commit, "2027-01-15T08:30:00Z")
        } else {
            (other_commit, "2025-05-05T23:59:59Z")
        };
        let answer = format!(r#"[{{"sha":"{commit}","commit":{{"committer":{{"name":"x","date":"{date}"}}}}}}]"#);
        files.insert(format!("repos/{owner}/{repo}/commits?sha={branch}&path={file}&per_page=1"), answer.into_bytes());
        files.insert(format!("{owner}/{repo}/{commit}/{file}"), bytes);
    }
    let base = serve(files, Some("test-token"));
    // The kept tree where the CLI looks for it by default: data/fetched.
    let dir = scratch("commits");
    let (out, keep) = (dir.join("out"), dir.join("data/fetched"));
    let data = shared_data();
    let options = FetchOptions {
        base_url: &base,
        commits_api: Some(&base),
        api_token: Some("test-token"),
        from: &data,
        out: &out,
        keep: &keep,
    };
    let refreshed = refresh(&options).unwrap();
    for file in &refreshed.manifest.files {
        let (commit, date) = if file.path == "catalogs/v8/lambda/vms.csv" {
            (lambda_commit, "2027-01-15")
        } else {
            (other_commit, "2025-05-05")
        };
        assert_eq!((file.commit.as_deref(), file.commit_date.as_deref()), (Some(commit), Some(date)), "{}", file.path);
        assert!(file.url.contains(&format!("/{commit}/")), "{}", file.url);
    }

    let snapshot = json(&out.join("offers.json"));
    let source = |id: &str| snapshot["sources"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap().clone();
    assert_eq!(
        (source("skypilot-v8-lambda")["commit"].as_str(), source("skypilot-v8-lambda")["as_of"].as_str()),
        (Some(lambda_commit), Some("2027-01-15"))
    );
    // An old file keeps its old date: as_of says how fresh its prices are.
    assert_eq!(
        (source("fsdl")["commit"].as_str(), source("fsdl")["as_of"].as_str()),
        (Some(other_commit), Some("2025-05-05"))
    );
    assert_eq!(snapshot["snapshot_date"], "2027-01-15", "the freshest source dates the snapshot");
    // The same files as the shared data's, so the same offers.
    let from = dir.join("from");
    build_from_shared_data(&from);
    assert!(snapshot["offers"] == json(&from.join("offers.json"))["offers"]);
    assert_eq!(json(&from.join("offers.json"))["snapshot_date"], "2026-09");

    // In a directory holding data/fetched/FETCHED.json, `snapshot --from`
    // reads it by default; elsewhere, --from's offers.
    let output = whichgpu_in(&dir, &["snapshot", "--from", text(&data), "--out", "rebuilt"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("(offer files from data/fetched)"), "{}", stdout(&output));
    assert!(snapshot_files(&dir.join("rebuilt")) == snapshot_files(&out), "the default rebuilds the fetched snapshot");
    let output = whichgpu_in(&dir.join("data"), &["snapshot", "--from", text(&data), "--out", "elsewhere"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(&format!("(offer files from {})", data.display())), "{}", stdout(&output));
    assert!(snapshot_files(&dir.join("data/elsewhere")) == snapshot_files(&from));

    // A kept tree fetched under other rules than data/offer_sources.csv's is
    // refused, rather than built as if current.
    let manifest = std::fs::read_to_string(keep.join("FETCHED.json")).unwrap();
    assert!(manifest.contains("\"InstanceType^p\""));
    std::fs::write(keep.join("FETCHED.json"), manifest.replace("\"InstanceType^p\"", "\"InstanceType^q\"")).unwrap();
    let output = whichgpu_in(&dir, &["snapshot", "--from", text(&data), "--out", "stale"]);
    assert!(!output.status.success(), "a stale kept tree was built");
    let message = stderr(&output);
    assert!(message.contains("skypilot-v8-aws-p") && message.contains("fetch again"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_token_goes_to_the_commits_api_and_its_refusal_stops_the_refresh() {
    let mut files = Files::new();
    let sha = "0123456789abcdef0123456789abcdef01234567";
    for (path, bytes) in upstream_copy() {
        let mut parts = path.splitn(4, '/');
        let (owner, repo, branch, file) =
            (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let answer = format!(r#"[{{"sha":"{sha}","commit":{{"committer":{{"date":"2025-05-05T00:00:00Z"}}}}}}]"#);
        files.insert(format!("repos/{owner}/{repo}/commits?sha={branch}&path={file}&per_page=1"), answer.into_bytes());
        files.insert(format!("{owner}/{repo}/{sha}/{file}"), bytes);
    }
    let base = serve(files, Some("right"));
    let dir = scratch("token");
    let data = shared_data();
    let (out, keep) = (dir.join("out"), dir.join("keep"));
    let options = FetchOptions {
        base_url: &base,
        commits_api: Some(&base),
        api_token: Some("wrong"),
        from: &data,
        out: &out,
        keep: &keep,
    };
    let message = refresh(&options).unwrap_err().to_string();
    assert!(
        message.contains("HTTP 401") && message.contains("repos/skypilot-org/skypilot-catalog/commits?"),
        "{message}"
    );
    assert_eq!(entries(&dir), BTreeSet::new(), "nothing is written");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Refreshes once from the upstream copy, then against `files`: the second
/// refresh must fail naming each of `expected`, and leave the snapshot and
/// the kept tree as the first left them.
fn assert_refresh_fails(name: &str, files: Files, expected: &[&str]) {
    let dir = scratch(name);
    let (out, keep) = (dir.join("out"), dir.join("keep"));
    let output = fetch(&serve(upstream_copy(), None), &out, &keep);
    assert!(output.status.success(), "{name}: {}", stderr(&output));
    let (snapshot_before, kept_before) = (tree(&out), tree(&keep));
    let output = fetch(&serve(files, None), &out, &keep);
    assert!(!output.status.success(), "{name}: the refresh succeeded");
    let message = stderr(&output);
    for words in expected {
        assert!(message.contains(words), "{name}: \"{words}\" not in {message}");
    }
    assert!(message.contains("are unchanged"), "{message}");
    assert!(tree(&out) == snapshot_before, "{name}: the snapshot changed");
    assert!(tree(&keep) == kept_before, "{name}: the kept tree changed");
    assert_eq!(entries(&dir), ["keep", "out"].map(String::from).into(), "{name}: no staging is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

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
