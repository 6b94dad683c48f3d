//! A tiny static file server for the built `dist/` folder, mounted under a sub-path so the test
//! proves the app works when hosted below the site root. Every response from the sub-path carries
//! the headers of the `/*` block of `dist/_headers` — the strict CSP and the CORS headers a static
//! host would send — so every browser test runs under them. Outside the sub-path the server
//! answers only the host pages a test registers in [`StaticServer::pages`] (third-party pages
//! that embed the app, sent without those headers); anything else is a 404. A plain host
//! ([`StaticServer::start_without_cors`]) leaves the CORS headers out. Every request is
//! recorded so the test can assert nothing else was asked for. For browsers without the Chrome
//! DevTools Protocol's "script on every new document", [`StaticServer::hook`] names a script the
//! server adds to the head of every HTML page it serves from the sub-path, before any other
//! script, as a same-origin file (`__e2e_hook.js`, allowed by the CSP's `script-src 'self'`).

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
    /// Pages outside the sub-path, as `(absolute path, HTML)`: the sites that embed the app.
    pub pages: Arc<Mutex<Vec<(String, String)>>>,
    /// The headers every response from the sub-path carries (from `dist/_headers`).
    pub headers: Arc<Vec<(String, String)>>,
    /// A script run first in every page from the sub-path, if set.
    pub hook: Arc<Mutex<Option<String>>>,
}

/// The hook's file name, beside the app's files.
const HOOK_FILE: &str = "__e2e_hook.js";

impl StaticServer {
    /// Serves `root` on 127.0.0.1 at an ephemeral port, with the headers of `root/_headers`.
    pub fn start(root: PathBuf) -> StaticServer {
        StaticServer::serve(root, |_| true)
    }

    /// [`StaticServer::start`] as a plain static host: without the CORS headers of `_headers`
    /// (`Access-Control-Allow-Origin`, `Cross-Origin-Resource-Policy`), on an origin of its own.
    #[allow(dead_code)] // the embeds' hosts are e2e_share's
    pub fn start_without_cors(root: PathBuf) -> StaticServer {
        StaticServer::serve(root, |name| {
            !["Access-Control-Allow-Origin", "Cross-Origin-Resource-Policy"].contains(&name)
        })
    }

    /// [`StaticServer::start`] as a host that ignores `_headers` altogether (GitHub Pages, a
    /// plain `python3 -m http.server`): no CSP, no CORS, on an origin of its own.
    #[allow(dead_code)] // the fallbacks' host is e2e_share's and e2e_engines'
    pub fn start_plain(root: PathBuf) -> StaticServer {
        StaticServer::serve(root, |_| false)
    }

    /// Serves `root` with the headers of its `_headers` that `keep` keeps.
    fn serve(root: PathBuf, keep: fn(&str) -> bool) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the static server");
        let port = listener.local_addr().expect("local addr").port();
        let headers_file = root.join("_headers");
        let text = std::fs::read_to_string(&headers_file)
            .unwrap_or_else(|e| panic!("{} ({e}): the build must ship a _headers file", headers_file.display()));
        let server = StaticServer {
            url: format!("http://127.0.0.1:{port}{SUB_PATH}"),
            log: Arc::new(Mutex::new(Vec::new())),
            pages: Arc::new(Mutex::new(Vec::new())),
            headers: Arc::new(headers_for_all(&text).into_iter().filter(|(name, _)| keep(name)).collect()),
            hook: Arc::new(Mutex::new(None)),
        };
        assert!(
            headers_for_all(&text).iter().any(|(k, _)| k == "Content-Security-Policy"),
            "dist/_headers has no Content-Security-Policy for /*"
        );
        let site = Site {
            root,
            log: Arc::clone(&server.log),
            pages: Arc::clone(&server.pages),
            headers: Arc::clone(&server.headers),
            hook: Arc::clone(&server.hook),
        };
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let site = site.clone();
                thread::spawn(move || {
                    let _ = handle(stream, &site);
                });
            }
        });
        server
    }

    /// The absolute URL of `path` on this server (e.g. a host page's `/host/two.html`).
    #[allow(dead_code)] // the host pages are e2e_share's
    pub fn at(&self, path: &str) -> String {
        let origin = self.url.strip_suffix(SUB_PATH).unwrap_or(&self.url);
        format!("{origin}{path}")
    }
}

/// What one connection needs to answer.
#[derive(Clone)]
struct Site {
    root: PathBuf,
    log: Arc<Mutex<Vec<(u16, String)>>>,
    pages: Arc<Mutex<Vec<(String, String)>>>,
    headers: Arc<Vec<(String, String)>>,
    hook: Arc<Mutex<Option<String>>>,
}

/// `html` with a script tag for the hook first in its head.
fn with_hook(html: Vec<u8>) -> Vec<u8> {
    let html = String::from_utf8(html).expect("UTF-8 HTML");
    let at = html.find("<head>").map_or(0, |i| i + "<head>".len());
    format!("{}<script src=\"{HOOK_FILE}\"></script>{}", &html[..at], &html[at..]).into_bytes()
}

/// The headers of the `/*` block of a Netlify/Cloudflare-style `_headers` file: a path line, then
/// indented `Name: value` lines; `#` starts a comment.
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

fn handle(mut stream: TcpStream, site: &Site) -> std::io::Result<()> {
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
    let readable = method == "GET" || method == "HEAD";
    let page = site.pages.lock().unwrap().iter().find(|(p, _)| *p == path).map(|(_, html)| html.clone());
    let hook = site.hook.lock().unwrap().clone();
    let file = resolve(&site.root, &path).filter(|_| readable);
    let own_headers = || site.headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect::<String>();
    let (status, body, content_type, extra) = match (page.filter(|_| readable), file) {
        (Some(page), _) => (200, page.into_bytes(), content_type(Path::new(&path)), String::new()),
        (None, None) if hook.is_some() && path == format!("{SUB_PATH}{HOOK_FILE}") => {
            (200, hook.unwrap_or_default().into_bytes(), "text/javascript; charset=utf-8", own_headers())
        }
        (None, Some(f)) => match std::fs::read(&f) {
            Ok(body) => {
                let html = f.extension().is_some_and(|e| e == "html");
                let body = if html && hook.is_some() { with_hook(body) } else { body };
                (200, body, content_type(&f), own_headers())
            }
            Err(_) => (404, b"not found".to_vec(), "text/plain; charset=utf-8", String::new()),
        },
        (None, None) => (404, b"not found".to_vec(), "text/plain; charset=utf-8", String::new()),
    };
    site.log.lock().unwrap().push((status, path));
    let reason = if status == 200 { "OK" } else { "Not Found" };
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{extra}Connection: close\r\n\r\n",
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
