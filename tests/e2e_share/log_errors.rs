//! "Your traffic" when a log is large or bad: a large upload shows progress while the page keeps
//! animating, and Cancel stops it; what it cannot read is refused by line, the playground left
//! running: a binary file, Latin-1, an endless line, prose, an empty file, time going back, and
//! gzip that is cut short or is not gzip past its first two bytes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use fantoccini::Client;
use serde_json::Value;

use super::logs::{gzip, upload};
use super::page::{click, js, wait_until};

/// A combined log of `lines` lines, 200 requests a second from 50 clients (large, quick to write).
fn big_log(path: &Path, lines: u64) {
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..lines {
        let s = i / 200;
        writeln!(
            w,
            "10.0.0.{} - - [02/Nov/2026:{:02}:{:02}:{:02} +0000] \"GET /api/v1/items HTTP/1.1\" 200 512 \"https://app.example.com/\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\"",
            i % 50,
            9 + s / 3600,
            s / 60 % 60,
            s % 60
        )
        .unwrap();
    }
}

/// A 1.5 M-line upload: progress while the page keeps drawing, then Cancel, after which the
/// worker says nothing more.
pub(crate) async fn progress_and_cancel(client: &Client, dir: &Path) {
    // A large upload: progress while the page keeps animating, then Cancel.
    let big = dir.join("big.log");
    big_log(&big, 1_500_000);
    js(client, "window.__rafs = 0; (function tick() { window.__rafs++; requestAnimationFrame(tick); })();").await;
    upload(client, &big).await;
    wait_until(client, "document.querySelector('#log-progress progress') && Number(document.querySelector('#log-progress progress').value) > 0", Duration::from_secs(20), "progress shows").await;
    let frames =
        js(client, "const a = window.__rafs; return new Promise(r => setTimeout(() => r(window.__rafs - a), 500));")
            .await;
    assert!(
        frames.as_u64().unwrap_or(0) >= 20,
        "the page keeps drawing while the log is read: {frames} frames in 0.5 s"
    );
    click(client, "#log-cancel").await;
    wait_until(client, "!document.querySelector('#log-progress') && document.querySelector('#log-error').textContent.startsWith('Cancelled')", Duration::from_secs(3), "cancelled").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        js(client, "return !!document.querySelector('#log-progress');").await,
        Value::Bool(false),
        "a cancelled worker says nothing more"
    );
}

pub(crate) async fn bad_files(client: &Client, dir: &Path, sample: &Path) {
    let first = std::fs::read_to_string(sample).unwrap();
    let line = first.lines().next().unwrap();
    let earlier = line.replace("09:00:00", "08:00:00");
    let whole = gzip(first.as_bytes());
    let cut = whole[..whole.len() / 2].to_vec();
    let bad: [(&str, Vec<u8>, &str); 8] = [
        ("binary.log", vec![0, 1, 2, 3], "log line 1: holds a NUL byte"),
        ("latin1.log", [line.as_bytes(), b"\ncaf\xe9\n"].concat(), "log line 2: is not UTF-8 text"),
        ("long.log", vec![b'a'; 10 << 20], "log line 1: is longer than 65536 bytes"),
        (
            "prose.log",
            b"Dear diary, today the API was slow.\n".to_vec(),
            "log line 1: is not in a log format this reads",
        ),
        ("empty.log", Vec::new(), "log: "),
        ("jump.log", format!("{line}\n{earlier}\n").into_bytes(), "log line 2: its time is 3600.000 s before"),
        ("cut.log.gz", cut, "log: cannot be read: damaged or cut-short gzip (Compressed input was truncated.)"),
        (
            "fake.log.gz",
            [&[0x1f, 0x8b][..], b"not deflate at all, just words"].concat(),
            "log: cannot be read: damaged or cut-short gzip (",
        ),
    ];
    for (name, bytes, message) in bad {
        let path: PathBuf = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let requests =
            js(client, "return Number(document.querySelector('#requests').textContent.replaceAll(',', ''));").await;
        upload(client, &path).await;
        let refused = format!("document.querySelector('#log-error') && document.querySelector('#log-error').textContent.startsWith({message:?})");
        wait_until(client, &refused, Duration::from_secs(20), &format!("{name} is refused with '{message}'")).await;
        assert_eq!(
            js(client, "return document.querySelector('#log-results').textContent;").await,
            Value::String(String::new()),
            "{name}: no report"
        );
        let later = format!("Number(document.querySelector('#requests').textContent.replaceAll(',', '')) > {requests}");
        wait_until(client, &later, Duration::from_secs(5), &format!("{name}: the playground keeps running")).await;
    }
}
