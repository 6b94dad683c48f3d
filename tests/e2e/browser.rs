//! A browser under its WebDriver server, driven by fantoccini: headless Chromium under
//! chromedriver, and for what readers see in other engines ([`Engine`]) headless Firefox ESR under
//! geckodriver and WebKitGTK's MiniBrowser under WebKitWebDriver (in a virtual X display,
//! `xvfb-run`). [`Browser`] owns the driver's process group and a fresh profile folder: dropping
//! it (also while a failed assertion unwinds) sends SIGTERM to the whole group, so neither the
//! driver nor the browser outlives the test.

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

/// Firefox ESR (Debian's `firefox-esr`) and geckodriver (crates.io, in cargo's bin folder).
const FIREFOX: &str = "/usr/bin/firefox-esr";
const GECKODRIVER: &str = "geckodriver";
/// WebKitGTK's WebDriver server (Debian's `webkit2gtk-driver`) and the browser it drives.
const WEBKIT_DRIVER: &str = "/usr/bin/WebKitWebDriver";
const MINIBROWSERS: [&str; 3] = [
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser",
    "/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser",
];

/// A browser engine the tests drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)] // Firefox and WebKit are e2e_engines'
pub enum Engine {
    /// Headless Chromium (Blink).
    Chromium,
    /// Headless Firefox ESR (Gecko).
    Firefox,
    /// WebKitGTK's MiniBrowser (WebKit, Safari's engine family), in a virtual display.
    WebKit,
}

/// A WebDriver server's process group plus the temporary profile folder of its browser.
pub struct Browser {
    driver: Child,
    profile: PathBuf,
    engine: Engine,
    /// The WebDriver endpoint, `http://127.0.0.1:PORT`.
    pub webdriver_url: String,
}

impl Browser {
    /// Starts chromedriver in its own process group and waits until it accepts connections.
    pub fn start() -> Browser {
        Browser::start_engine(Engine::Chromium)
    }

    /// Starts `engine`'s WebDriver server in its own process group and waits until it accepts
    /// connections.
    pub fn start_engine(engine: Engine) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let profile = std::env::temp_dir().join(format!("rlp-e2e-profile-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&profile).expect("create the profile folder");
        let mut command = match engine {
            Engine::Chromium => Command::new(CHROMEDRIVER),
            Engine::Firefox => {
                let mut c = Command::new(GECKODRIVER);
                c.args(["--host", "127.0.0.1", "--port", &port.to_string()]);
                c
            }
            // MiniBrowser draws into an X display even for automation: a virtual one.
            Engine::WebKit => {
                let mut c = Command::new("xvfb-run");
                c.args(["-a", "-s", "-screen 0 1920x1080x24", WEBKIT_DRIVER]);
                c
            }
        };
        if engine != Engine::Firefox {
            command.arg(format!("--port={port}"));
        }
        let driver =
            command.stdout(Stdio::null()).stderr(Stdio::null()).process_group(0).spawn().unwrap_or_else(|e| {
                panic!("cannot start the {engine:?} driver ({e}); run scripts/bootstrap.sh --test")
            });
        let browser = Browser { driver, profile, engine, webdriver_url: format!("http://127.0.0.1:{port}") };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the {engine:?} driver did not listen on port {port} within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        browser
    }

    /// The capabilities of a session on this browser, with a fresh profile where the driver
    /// does not make one itself.
    fn capabilities(&self) -> Value {
        match self.engine {
            Engine::Chromium => {
                let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
                args.push(format!("--user-data-dir={}", self.profile.display()));
                args.push("--window-size=1280,800".into());
                json!({
                    "browserName": "chrome",
                    "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
                    "goog:loggingPrefs": { "browser": "ALL" },
                })
            }
            // geckodriver makes a fresh profile for each session and removes it afterwards.
            Engine::Firefox => json!({
                "browserName": "firefox",
                "moz:firefoxOptions": { "binary": FIREFOX, "args": ["-headless", "-width", "1280", "-height", "800"] },
            }),
            Engine::WebKit => {
                let binary = MINIBROWSERS
                    .iter()
                    .find(|p| std::path::Path::new(p).is_file())
                    .unwrap_or_else(|| panic!("no MiniBrowser at {MINIBROWSERS:?}; run scripts/bootstrap.sh --test"));
                json!({
                    "browserName": "MiniBrowser",
                    "webkitgtk:browserOptions": { "binary": binary, "args": ["--automation"] },
                })
            }
        }
    }

    /// Opens a WebDriver session on the browser, with a fresh profile, at 1280×800.
    pub async fn connect(&self) -> Client {
        let Value::Object(capabilities) = self.capabilities() else { unreachable!() };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.webdriver_url)
            .await
            .unwrap_or_else(|e| panic!("open a WebDriver session on {:?}: {e}", self.engine));
        if self.engine != Engine::Chromium {
            client.set_window_size(1280, 800).await.expect("size the window");
        }
        client
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
