//! `ratelimit_sim._native`: the engine's entry points for the Python package, kept thin. Every
//! number comes from the crate's engine (`ratelimit_playground::sim`), exactly as the CLI prints
//! it; this file only moves arguments in and columns out, and releases the GIL while the engine
//! runs. The Python layer (`ratelimit_sim/`) turns Arrow tables, Spark and Dask frames into the
//! flat buffers these functions take.

use std::collections::HashMap;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use ratelimit_playground::files::open_log;
use ratelimit_playground::sim::logs::per_key::{midnight_before, KeyReplay, KeyRequests, LineRequests};
use ratelimit_playground::sim::logs::scope::shadow_scoped;
use ratelimit_playground::sim::logs::scope::Scope;
use ratelimit_playground::sim::logs::{output, KeyBy, LogFormat};
use ratelimit_playground::sim::{report, Scenario};

/// An error as the CLI words it, raised as `ValueError`.
fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The scenario of `query`, or the CLI's message.
fn scenario(query: &str) -> PyResult<Scenario> {
    Scenario::from_query(query).map_err(value_error)
}

/// The CLI's `--format json` result for `query`, as JSON text.
#[pyfunction]
fn simulate(py: Python<'_>, query: &str) -> PyResult<String> {
    let sc = scenario(query)?;
    py.detach(|| report::run(&sc).map(|r| r.to_json())).map_err(value_error)
}

/// The counters' scope from the CLI's `--scope`, `--instances` and `--placement`.
fn scope_of(scope: &str, instances: Option<u32>, placement: Option<&str>) -> PyResult<Scope> {
    Scope::named(scope, instances.map(|n| n.to_string()).as_deref(), placement).map_err(value_error)
}

/// The CLI's shadow report (`--log P … --format json`, with `--scope`) of the logs at `paths`,
/// merged by time.
#[pyfunction]
#[pyo3(signature = (paths, query, key = "ip", log_format = None, scope = "global", instances = None, placement = None))]
#[allow(clippy::too_many_arguments)]
fn shadow_files(
    py: Python<'_>,
    paths: Vec<String>,
    query: &str,
    key: &str,
    log_format: Option<&str>,
    scope: &str,
    instances: Option<u32>,
    placement: Option<&str>,
) -> PyResult<String> {
    let sc = scenario(query)?;
    let scope = scope_of(scope, instances, placement)?;
    let key = KeyBy::named(key).map_err(|e| value_error(format!("key: {e}")))?;
    let format = log_format.map(LogFormat::named).transpose().map_err(|e| value_error(format!("log_format: {e}")))?;
    if paths.is_empty() {
        return Err(value_error("source: no log file given"));
    }
    py.detach(|| {
        let input = open_log(&paths, format.clone())?;
        let (report, against) = shadow_scoped(input, format, &key, &sc, scope).map_err(|e| e.to_string())?;
        Ok::<_, String>(output::shadow(&report, &sc, false, against.as_ref()))
    })
    .map_err(value_error)
}

/// `values` as little-endian bytes, for `numpy.frombuffer`.
fn le_bytes<'py, const N: usize>(py: Python<'py>, values: impl Iterator<Item = [u8; N]>) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flatten().collect();
    PyBytes::new(py, &bytes)
}

/// A log's lines read into requests, in no order (what a cluster's worker runs over its part of
/// the log): the lines are an Arrow large-string array's `offsets` and `data`. Returns the keys
/// seen, each request's key (an index into them, `uint32`), its time (ns since the epoch,
/// `int64`) and whether its stamp is a whole second (`uint8`), as bytes, and the lines skipped.
#[pyfunction]
#[pyo3(signature = (offsets, data, key = "ip", log_format = None))]
#[allow(clippy::type_complexity)]
fn parse_lines<'py>(
    py: Python<'py>,
    offsets: PyBuffer<i64>,
    data: PyBuffer<u8>,
    key: &str,
    log_format: Option<&str>,
) -> PyResult<(Vec<String>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, u64)> {
    let key = KeyBy::named(key).map_err(|e| value_error(format!("key: {e}")))?;
    let format = log_format.map(LogFormat::named).transpose().map_err(|e| value_error(format!("log_format: {e}")))?;
    let (offsets, data) = (offsets.to_vec(py)?, data.to_vec(py)?);
    let parsed = py.detach(|| {
        let mut lines = LineRequests::new(format, &key).map_err(|e| e.message)?;
        let mut index: HashMap<String, u32> = HashMap::new();
        let (mut names, mut codes, mut ns, mut whole) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for w in offsets.windows(2) {
            let bytes = data.get(w[0] as usize..w[1] as usize).ok_or("lines: offsets past the data")?;
            let line = std::str::from_utf8(bytes).map_err(|e| format!("a line is not UTF-8 text ({e})"))?;
            lines
                .line(line, |k, t, w| {
                    let code = *index.entry(k.to_string()).or_insert_with(|| {
                        names.push(k.to_string());
                        names.len() as u32 - 1
                    });
                    codes.push(code);
                    ns.push(t);
                    whole.push(u8::from(w));
                })
                .map_err(|e| e.message)?;
        }
        Ok::<_, String>((names, codes, ns, whole, lines.skipped))
    });
    let (names, codes, ns, whole, skipped) = parsed.map_err(value_error)?;
    Ok((
        names,
        le_bytes(py, codes.iter().map(|c| c.to_le_bytes())),
        le_bytes(py, ns.iter().map(|t| t.to_le_bytes())),
        PyBytes::new(py, &whole),
        skipped,
    ))
}

/// Simulated 0 for a log whose first request came `first_ns` after the epoch: the UTC midnight
/// before it, ms since the epoch (what the CLI takes).
#[pyfunction(name = "midnight_before")]
fn midnight_before_py(first_ns: i64) -> i64 {
    midnight_before(first_ns)
}

/// Requests of any number of keys, fed in batches in any order and replayed key by key under one
/// policy: each key's counts depend on its own requests alone, as the whole log's shadow run
/// gives them.
#[pyclass(module = "ratelimit_sim._native")]
struct Replayer {
    sc: Scenario,
    scope: Scope,
    index: HashMap<String, u32>,
    names: Vec<String>,
    keys: Vec<KeyRequests>,
    first_ns: Option<i64>,
}

#[pymethods]
impl Replayer {
    /// A replay under the policy of `query`, the counters kept per `scope` (as the CLI's
    /// `--scope`, `--instances`, `--placement`; per key: random or hash placement).
    #[new]
    #[pyo3(signature = (query, scope = "global", instances = None, placement = None))]
    fn new(query: &str, scope: &str, instances: Option<u32>, placement: Option<&str>) -> PyResult<Self> {
        let (sc, scope) = (scenario(query)?, scope_of(scope, instances, placement)?);
        // What cannot be replayed per key is refused now, before any row is fed.
        KeyRequests::default().replay_scoped("-", &sc, 0, &scope).map_err(value_error)?;
        Ok(Replayer { sc, scope, index: HashMap::new(), names: Vec::new(), keys: Vec::new(), first_ns: None })
    }

    /// One batch: `names` (the batch's distinct keys), each request's key as an index into them
    /// (`codes`, int32), its time in ns since the epoch (`ns`, int64) and whether its stamp is a
    /// whole second (`whole`, uint8).
    fn feed(
        &mut self,
        py: Python<'_>,
        names: Vec<String>,
        codes: PyBuffer<i32>,
        ns: PyBuffer<i64>,
        whole: PyBuffer<u8>,
    ) -> PyResult<()> {
        let (codes, ns, whole) = (codes.to_vec(py)?, ns.to_vec(py)?, whole.to_vec(py)?);
        if codes.len() != ns.len() || ns.len() != whole.len() {
            return Err(value_error("feed: codes, ns and whole differ in length"));
        }
        let ids: Vec<u32> = names
            .into_iter()
            .map(|name| {
                *self.index.entry(name.clone()).or_insert_with(|| {
                    self.names.push(name);
                    self.keys.push(KeyRequests::default());
                    self.keys.len() as u32 - 1
                })
            })
            .collect();
        let (keys, first) = (&mut self.keys, &mut self.first_ns);
        py.detach(|| {
            for ((&code, &t), &w) in codes.iter().zip(&ns).zip(&whole) {
                let id =
                    *usize::try_from(code).ok().and_then(|c| ids.get(c)).ok_or("feed: a key code past the names")?;
                let r = &mut keys[id as usize];
                if w != 0 {
                    r.whole_second(t.div_euclid(1_000_000_000)).map_err(|e| e.message)?;
                } else {
                    r.exact(t).map_err(|e| e.message)?;
                }
                *first = Some(first.map_or(t, |f| f.min(t)));
            }
            Ok::<_, String>(())
        })
        .map_err(value_error)
    }

    /// Replays every key fed (with simulated 0 at `origin_ms`, ms since the epoch; by default the
    /// UTC midnight before the first request fed) and returns its columns, ranked as the CLI ranks
    /// keys (most rejections first, then by name), with the totals.
    #[pyo3(signature = (origin_ms = None))]
    fn finish<'py>(&mut self, py: Python<'py>, origin_ms: Option<i64>) -> PyResult<Bound<'py, PyDict>> {
        let origin = origin_ms.unwrap_or_else(|| self.first_ns.map_or(0, midnight_before));
        let keys = std::mem::take(&mut self.keys);
        let names = std::mem::take(&mut self.names);
        self.index.clear();
        let (sc, scope) = (&self.sc, &self.scope);
        let rows = py.detach(|| {
            names
                .into_iter()
                .zip(keys)
                .map(|(name, r)| r.replay_scoped(&name, sc, origin, scope).map(|replay| (name, replay)))
                .collect::<Result<Vec<(String, KeyReplay)>, String>>()
        });
        let mut rows = rows.map_err(value_error)?;
        rows.sort_by(|a, b| b.1.counts.rejected.cmp(&a.1.counts.rejected).then_with(|| a.0.cmp(&b.0)));
        let out = PyDict::new(py);
        let column = |f: fn(&KeyReplay) -> u64| rows.iter().map(|(_, r)| f(r)).collect::<Vec<u64>>();
        let total = |f: fn(&KeyReplay) -> u64| rows.iter().map(|(_, r)| f(r)).sum::<u64>();
        out.set_item("requests_total", total(|r| r.counts.requests))?;
        out.set_item("admitted_total", total(|r| r.counts.admitted))?;
        out.set_item("rejected_total", total(|r| r.counts.rejected))?;
        out.set_item("keys_throttled", rows.iter().filter(|(_, r)| r.counts.rejected > 0).count())?;
        out.set_item("origin_ms", origin)?;
        out.set_item("scenario", self.sc.to_query_full())?;
        out.set_item("requests", column(|r| r.counts.requests))?;
        out.set_item("admitted", column(|r| r.counts.admitted))?;
        out.set_item("rejected", column(|r| r.counts.rejected))?;
        out.set_item("peak_1s", column(|r| r.counts.peak_1s))?;
        out.set_item("peak_window", column(|r| r.counts.peak_window))?;
        out.set_item("first_rejected_ms", rows.iter().map(|(_, r)| r.first_rejected_ms).collect::<Vec<_>>())?;
        if self.scope != Scope::Global {
            out.set_item("scope", self.scope.words())?;
            out.set_item("global_admitted", rows.iter().map(|(_, r)| r.global.map_or(0, |g| g.0)).collect::<Vec<_>>())?;
            out.set_item("global_rejected", rows.iter().map(|(_, r)| r.global.map_or(0, |g| g.1)).collect::<Vec<_>>())?;
        }
        out.set_item("key", rows.into_iter().map(|(k, _)| k).collect::<Vec<_>>())?;
        self.first_ns = None;
        Ok(out)
    }
}

/// The module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(shadow_files, m)?)?;
    m.add_function(wrap_pyfunction!(parse_lines, m)?)?;
    m.add_function(wrap_pyfunction!(midnight_before_py, m)?)?;
    m.add_class::<Replayer>()?;
    Ok(())
}
