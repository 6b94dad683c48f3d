//! Headless Chromium under chromedriver, driven by fantoccini. [`Browser`] owns the chromedriver
//! process group and a fresh profile folder: dropping it (also while a failed assertion unwinds)
//! sends SIGTERM to the whole group, so neither chromedriver nor Chromium outlives the test.

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
/// Flags verified on this machine kind (see shared/TOOLCHAIN.md).
const FLAGS: [&str; 9] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A chromedriver process group plus the temporary Chromium profile it uses.
pub struct Browser {
    driver: Child,
    profile: PathBuf,
    /// The WebDriver endpoint, `http://127.0.0.1:PORT`.
    pub webdriver_url: String,
}

impl Browser {
    /// Starts chromedriver in its own process group and waits until it accepts connections.
    pub fn start() -> Browser {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let profile = std::env::temp_dir().join(format!("rlp-e2e-profile-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&profile).expect("create the Chromium profile folder");
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {CHROMEDRIVER} ({e}); run scripts/bootstrap.sh --test"));
        let browser = Browser { driver, profile, webdriver_url: format!("http://127.0.0.1:{port}") };
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen on port {port} within 15 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        browser
    }

    /// Opens a WebDriver session on headless Chromium with a fresh profile.
    pub async fn connect(&self) -> Client {
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", self.profile.display()));
        args.push("--window-size=1280,800".into());
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
            "goog:loggingPrefs": { "browser": "ALL" },
        });
        let Value::Object(capabilities) = capabilities else { unreachable!() };
        ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.webdriver_url)
            .await
            .expect("open a WebDriver session on headless Chromium")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let group = self.driver.id() as libc::pid_t;
        // SAFETY: plain syscalls on a process group this test created; no memory is shared.
        unsafe { libc::killpg(group, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(5);
        // killpg(group, 0) fails with ESRCH once every process of the group has exited.
        while unsafe { libc::killpg(group, 0) } == 0 && Instant::now() < deadline {
            let _ = self.driver.try_wait();
            std::thread::sleep(Duration::from_millis(50));
        }
        if unsafe { libc::killpg(group, 0) } == 0 {
            unsafe { libc::killpg(group, libc::SIGKILL) };
        }
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A Chrome DevTools Protocol call through chromedriver's `goog/cdp/execute` endpoint.
#[derive(Debug)]
pub struct Cdp(pub &'static str, pub Value);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "cmd": self.0, "params": self.1 }).to_string()))
    }
}

/// The browser console log collected by chromedriver (`goog:loggingPrefs`), drained on each call.
#[derive(Debug)]
pub struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}
