//! `schedscope._native`: the engine for Python, a thin pyo3 layer over `schedscope::cli::api`.
//!
//! Everything crosses as text: a config as (preset, [(key, value)]) or a share link, a result
//! as the CLI's `run --json` and the engine's trace JSON, which the pure-Python package
//! (`pysrc/schedscope/__init__.py`) turns into dicts and pandas DataFrames. Every call that
//! simulates releases the GIL (`Python::detach`), so Python threads, and `run_many`'s own
//! threads, run side by side. A bad key or value raises `ValueError` with the CLI's message.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use schedscope::cli::api;
use schedscope::engine::Config;

/// A config point: a preset (or none) and keys set over it in order, or a share link.
#[derive(Clone, FromPyObject)]
enum Point {
    Sets(Option<String>, Vec<(String, String)>),
    Link(String),
}

fn build(point: &Point) -> Result<Config, String> {
    match point {
        Point::Sets(preset, sets) => api::config(preset.as_deref(), sets).map(|(c, _)| c),
        Point::Link(link) => api::config_from_link(link),
    }
}

/// `(config, notes)` for a preset and keys: the CLI's `--preset` and `--set`, validated.
#[pyfunction]
#[pyo3(signature = (preset, sets))]
fn config_pairs(preset: Option<String>, sets: Vec<(String, String)>) -> PyResult<(Vec<(String, String)>, Vec<String>)> {
    let (c, notes) = api::config(preset.as_deref(), &sets).map_err(PyValueError::new_err)?;
    Ok((c.to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect(), notes))
}

/// Simulates one point: `(run --json text, trace JSON or None)`. The GIL is released.
#[pyfunction]
#[pyo3(signature = (point, trace = false))]
fn run(py: Python<'_>, point: Point, trace: bool) -> PyResult<(String, Option<String>)> {
    py.detach(|| build(&point).and_then(|c| api::run_json(&c, trace))).map_err(PyValueError::new_err)
}

/// Simulates every point on `threads` threads (0: all cores), answers in the points' order
/// whatever the thread count: each a `run --json` text, or the error message for that point.
/// Every point is checked before any runs, so a typo fails at once. The GIL is released.
#[pyfunction]
#[pyo3(signature = (points, threads = 0))]
fn run_many(py: Python<'_>, points: Vec<Point>, threads: usize) -> PyResult<Vec<String>> {
    let configs: Vec<Config> = points
        .iter()
        .enumerate()
        .map(|(i, p)| build(p).map_err(|e| format!("point {i}: {e}")))
        .collect::<Result<_, _>>()
        .map_err(PyValueError::new_err)?;
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(configs.len().max(1));
    let out = py.detach(|| {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut slots: Vec<Option<Result<String, String>>> = vec![None; configs.len()];
        let done = std::sync::Mutex::new(&mut slots);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(c) = configs.get(i) else { break };
                    let r = api::run_json(c, false).map(|(m, _)| m);
                    done.lock().expect("no thread panics holding it")[i] = Some(r);
                });
            }
        });
        slots
    });
    out.into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Some(Ok(m)) => Ok(m),
            Some(Err(e)) => Err(PyValueError::new_err(format!("point {i}: {e}"))),
            None => Err(PyValueError::new_err(format!("point {i}: not run"))),
        })
        .collect()
}

/// Every key (JSON list: name, group, values, default, help).
#[pyfunction]
fn keys() -> String {
    api::keys_json()
}

/// Every preset (JSON list: name, title, about, table, corpus).
#[pyfunction]
fn presets() -> String {
    api::presets_json()
}

/// Every named metric (JSON list: key, title, unit, better, count, panel, help).
#[pyfunction]
fn metrics() -> String {
    api::metrics_json()
}

/// `[(key, value)]` of every named metric in a `run --json` metrics object (JSON text).
#[pyfunction]
fn metric_values(metrics: &str) -> PyResult<Vec<(String, f64)>> {
    let values = api::metric_values(metrics).map_err(PyValueError::new_err)?;
    Ok(values.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// `validate --json`'s tables. The GIL is released.
#[pyfunction]
#[pyo3(signature = (quick = true))]
fn validate(py: Python<'_>, quick: bool) -> PyResult<String> {
    py.detach(|| api::validate_json(quick)).map_err(PyValueError::new_err)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(config_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_many, m)?)?;
    m.add_function(wrap_pyfunction!(keys, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(metrics, m)?)?;
    m.add_function(wrap_pyfunction!(metric_values, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
