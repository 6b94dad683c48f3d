//! A tiny static file server for the built `dist/` folder, mounted under a sub-path so the test
//! proves the app works when hosted below the site root. Anything outside the sub-path is a 404,
//! and every request is recorded so the test can assert nothing else was asked for.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;

/// The path prefix the app is served under.
pub const SUB_PATH: &str = "/some/sub/path/";

/// A running server; it lives until the test process ends.
pub struct StaticServer {
    /// `http://127.0.0.1:PORT/some/sub/path/`
    pub url: String,
    /// Every request as `(status, path)`, in arrival order.
    pub log: Arc<Mutex<Vec<(u16, String)>>>,
}

impl StaticServer {
    /// Serves `root` on 127.0.0.1 at an ephemeral port.
    pub fn start(root: PathBuf) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the static server");
        let port = listener.local_addr().expect("local addr").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let server_log = Arc::clone(&log);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (root, log) = (root.clone(), Arc::clone(&server_log));
                thread::spawn(move || {
                    let _ = handle(stream, &root, &log);
                });
            }
        });
        StaticServer { url: format!("http://127.0.0.1:{port}{SUB_PATH}"), log }
    }
}

fn handle(mut stream: TcpStream, root: &Path, log: &Mutex<Vec<(u16, String)>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("").to_string();
    let file = resolve(root, &path).filter(|_| method == "GET" || method == "HEAD");
    let (status, body, content_type) = match file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((f, body)) => (200, body, content_type(&f)),
        None => (404, b"not found".to_vec(), "text/plain; charset=utf-8"),
    };
    log.lock().unwrap().push((status, path));
    let reason = if status == 200 { "OK" } else { "Not Found" };
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// Maps a URL path under [`SUB_PATH`] to a file in `root`; `None` outside it or for `..` tricks.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let rest = url_path.strip_prefix(SUB_PATH)?;
    let rest = if rest.is_empty() || rest.ends_with('/') { format!("{rest}index.html") } else { rest.to_string() };
    let relative = Path::new(&rest);
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = root.join(relative);
    full.is_file().then_some(full)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}
