//! The cold-load benchmark's static host: serves one folder at the site root as GitHub Pages
//! serves a site, with text, script, style and wasm files gzip-compressed (`Content-Encoding:
//! gzip`) whenever the browser accepts it, over keep-alive HTTP/1.1 connections. A folder with a
//! `_headers` file (the app's build) also gets the headers of its `/*` block, the strict CSP
//! among them, as a host that reads that file sends them.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;

/// A running host; it lives until the benchmark ends.
pub struct GzipServer {
    /// `http://127.0.0.1:PORT/`
    pub url: String,
}

/// A file as sent: its body, and whether that is gzip-compressed.
struct Sent {
    body: Vec<u8>,
    gzip: bool,
}

/// What every connection shares: the folder, its `_headers`, and each file as sent.
struct Site {
    root: PathBuf,
    headers: Vec<(String, String)>,
    /// Each file as sent, by path (compressed and plain apart), made once.
    bodies: Mutex<HashMap<PathBuf, Arc<Sent>>>,
}

impl GzipServer {
    /// Serves `root` on 127.0.0.1 at an ephemeral port.
    pub fn start(root: &Path) -> GzipServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the benchmark's host");
        let port = listener.local_addr().expect("local addr").port();
        let headers = std::fs::read_to_string(root.join("_headers")).map(|t| headers_for_all(&t)).unwrap_or_default();
        let site = Arc::new(Site { root: root.to_path_buf(), headers, bodies: Mutex::new(HashMap::new()) });
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let site = Arc::clone(&site);
                thread::spawn(move || {
                    let _ = serve(stream, &site);
                });
            }
        });
        GzipServer { url: format!("http://127.0.0.1:{port}/") }
    }
}

/// The headers of the `/*` block of a Netlify/Cloudflare-style `_headers` file.
fn headers_for_all(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            in_block = line.trim() == "/*";
        } else if in_block {
            if let Some((name, value)) = line.trim().split_once(':') {
                out.push((name.trim().to_string(), value.trim().to_string()));
            }
        }
    }
    out
}

/// Answers the requests of one connection until the browser closes it.
fn serve(stream: TcpStream, site: &Site) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut gzip = false;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                gzip |= name.eq_ignore_ascii_case("accept-encoding") && value.contains("gzip");
            }
        }
        let mut parts = request_line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("");
        match resolve(&site.root, path).filter(|_| method == "GET" || method == "HEAD") {
            Some(file) => {
                let body = body(site, &file, gzip)?;
                let extra: String = site.headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
                let encoding = if body.gzip { "Content-Encoding: gzip\r\n" } else { "" };
                write!(
                    out,
                    "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n{encoding}Vary: Accept-Encoding\r\nCache-Control: max-age=600\r\n{extra}\r\n",
                    content_type(&file),
                    body.body.len()
                )?;
                if method != "HEAD" {
                    out.write_all(&body.body)?;
                }
            }
            None => {
                write!(out, "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found")?
            }
        }
        out.flush()?;
    }
}

/// `file` as sent: gzip-compressed (at zlib's default level) if the browser accepts it and the
/// type is one a static host compresses.
fn body(site: &Site, file: &Path, gzip: bool) -> std::io::Result<Arc<Sent>> {
    let compress = gzip && compressible(file);
    let key = if compress { file.with_extension("__gz") } else { file.to_path_buf() };
    if let Some(b) = site.bodies.lock().unwrap().get(&key) {
        return Ok(Arc::clone(b));
    }
    let raw = std::fs::read(file)?;
    let sent = if compress {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&raw)?;
        Sent { body: z.finish()?, gzip: true }
    } else {
        Sent { body: raw, gzip: false }
    };
    let sent = Arc::new(sent);
    site.bodies.lock().unwrap().insert(key, Arc::clone(&sent));
    Ok(sent)
}

/// Maps a URL path to a file under `root` (a folder's `index.html` for a path ending in `/`).
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let rest = url_path.strip_prefix('/')?;
    let rest = if rest.is_empty() || rest.ends_with('/') { format!("{rest}index.html") } else { rest.to_string() };
    let relative = Path::new(&rest);
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = root.join(relative);
    full.is_file().then_some(full)
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

/// The types GitHub Pages sends compressed: text of every kind and WebAssembly.
fn compressible(path: &Path) -> bool {
    matches!(extension(path), "html" | "js" | "mjs" | "css" | "svg" | "json" | "wasm" | "txt" | "xml")
}

fn content_type(path: &Path) -> &'static str {
    match extension(path) {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        _ => "application/octet-stream",
    }
}
