"""schedscope from Python: the same deterministic engine as the CLI and the web page.

    >>> import schedscope
    >>> r = schedscope.run({"preset": "nohz-pipe", "loops": "10000"})
    >>> r.digest == schedscope.run("?v=1&preset=nohz-pipe&loops=10000").digest
    True

A config is a dict of the same keys and text values as ``schedscope run --set`` and the
share links (``{"preset": "nohz-pipe", "nohz_ratelimit": "on"}``; ``preset`` first, the
other keys applied in the dict's order, as ``--set`` flags are), or a share link / its
query string. Values may be numbers or bools too: they are written as the CLI's text
(``True`` is ``on``). A bad key or value raises ``ValueError`` with the CLI's message.

``sweep(grid)`` runs the cartesian product of a dict of lists, on all cores by default
(the engine's own threads, GIL released), or on a Dask cluster with ``client=``; the
frame is the same row for row whichever runs it.
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _native

__all__ = ["run", "sweep", "presets", "keys", "metrics", "validate", "Result", "points", "__version__"]
__version__ = _native.__version__

Config = Union[Mapping[str, Any], str]


def _text(value: Any) -> str:
    """A Python value as the CLI's text (bools as on/off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _point(config: Config):
    """A config as the native layer takes it: (preset, [(key, value)]) or a link."""
    if isinstance(config, str):
        if "=" not in config:
            return (config, [])  # a bare preset name
        return config
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a dict or a share link, not {type(config).__name__}")
    preset = config.get("preset")
    sets = [(str(k), _text(v)) for k, v in config.items() if k != "preset"]
    return (None if preset is None else str(preset), sets)


@dataclass
class Result:
    """One run: its metrics (as ``run --json`` prints them), config, digest and trace."""

    metrics: dict
    config: dict
    _trace: Optional[dict] = field(default=None, repr=False)

    @property
    def digest(self) -> str:
        """FNV-1a over the counters: equal digests, equal runs (CLI, page and Python)."""
        return self.metrics["digest"]

    def _need_trace(self) -> dict:
        if self._trace is None:
            raise ValueError("this run recorded no trace: run it with trace=True")
        return self._trace

    @property
    def spans(self):
        """The trace's spans as a DataFrame: core, start_ns, end_ns, kind (run, idle,
        overhead), task, task_name, sys, state, state_name, overhead."""
        import pandas as pd

        t = self._need_trace()
        tasks = [x["name"] for x in t["tasks"]]
        states = t["idle_states"]
        rows = []
        for s in t["spans"]:
            k = s["kind"]
            task = k.get("task")
            state = k.get("state")
            rows.append(
                {
                    "core": s["core"],
                    "start_ns": s["start"],
                    "end_ns": s["end"],
                    "kind": k["type"],
                    "task": task,
                    "task_name": tasks[task] if task is not None and task < len(tasks) else None,
                    "sys": k.get("sys"),
                    "state": state,
                    "state_name": states[state] if state is not None and state < len(states) else None,
                    "overhead": k.get("kind"),
                }
            )
        cols = ["core", "start_ns", "end_ns", "kind", "task", "task_name", "sys", "state", "state_name", "overhead"]
        df = pd.DataFrame(rows, columns=cols)
        return df.sort_values(["start_ns", "core", "end_ns"], kind="stable").reset_index(drop=True)

    @property
    def instants(self):
        """The trace's marks as a DataFrame: core, time_ns, kind (tick, hrtick, ipi,
        wakeup, migrate), from_core, task."""
        import pandas as pd

        t = self._need_trace()
        rows = [
            {
                "core": i["core"],
                "time_ns": i["time"],
                "kind": i["kind"]["type"],
                "from_core": i["kind"].get("from"),
                "task": i["kind"].get("task"),
            }
            for i in t["instants"]
        ]
        df = pd.DataFrame(rows, columns=["core", "time_ns", "kind", "from_core", "task"])
        return df.sort_values(["time_ns", "core"], kind="stable").reset_index(drop=True)

    @property
    def tasks(self):
        """Per-task figures from the trace, one row per task: name, group, runtime_s (on CPU,
        user + sys), sys_s, runs (spans on CPU), wakeups and migrations (marks naming it),
        cpus (how many CPUs it ran on)."""
        import pandas as pd

        t = self._need_trace()
        spans, marks = self.spans, self.instants
        run = spans[spans["kind"] == "run"]
        rows = []
        for i, info in enumerate(t["tasks"]):
            mine = run[run["task"] == i]
            dur = (mine["end_ns"] - mine["start_ns"]).astype("int64")
            sys = dur[mine["sys"] == True]  # noqa: E712 (a column of bools and None)
            rows.append(
                {
                    "task": i,
                    "name": info["name"],
                    "group": info["group"],
                    "runtime_s": int(dur.sum()) / 1e9,
                    "sys_s": int(sys.sum()) / 1e9,
                    "runs": int(len(mine)),
                    "wakeups": int(((marks["kind"] == "wakeup") & (marks["task"] == i)).sum()),
                    "migrations": int(((marks["kind"] == "migrate") & (marks["task"] == i)).sum()),
                    "cpus": int(mine["core"].nunique()),
                }
            )
        cols = ["task", "name", "group", "runtime_s", "sys_s", "runs", "wakeups", "migrations", "cpus"]
        return pd.DataFrame(rows, columns=cols)

    @property
    def trace_truncated(self) -> bool:
        """The trace stopped recording at its item budget (the metrics are still the whole run's)."""
        return bool(self._need_trace()["truncated"])


def run(config: Config, trace: bool = False) -> Result:
    """Simulates one config (see the module doc) and returns its ``Result``."""
    text, trace_text = _native.run(_point(config), trace)
    out = json.loads(text)
    return Result(out["metrics"], out["config"], None if trace_text is None else json.loads(trace_text))


def presets():
    """The named presets as a DataFrame: name, title, about, table, corpus."""
    import pandas as pd

    return pd.DataFrame(json.loads(_native.presets()))


def keys():
    """Every config key as ``schedscope help`` lists it: name, group, values, default, help."""
    import pandas as pd

    return pd.DataFrame(json.loads(_native.keys()))


def metrics():
    """Every named metric, the one list the page, the CLI and ``sweep``'s columns use, as a
    DataFrame: key, title, unit, better (``higher``, ``lower`` or None), count, panel, help."""
    import pandas as pd

    return pd.DataFrame(json.loads(_native.metrics()))


def validate(quick: bool = True) -> list:
    """The seed and corpus tables, reported beside simulated (``validate --json``)."""
    return json.loads(_native.validate(quick))


def points(grid: Mapping[str, Sequence[Any]], seeds: Optional[Iterable[int]] = None, base: Optional[Config] = None):
    """The runs a sweep makes, in its row order: the cartesian product of ``grid`` (keys in the
    dict's order, the last one varying fastest), then each seed. Each is ``(knobs, config)``."""
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("grid must be a non-empty dict of key -> list of values")
    for k, values in grid.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ValueError(f"grid[{k!r}] must be a list of values, not {type(values).__name__}")
    base_dict: dict
    if base is None:
        base_dict = {}
    elif isinstance(base, str):
        if "=" in base:
            raise ValueError("base must be a dict or a preset name (a link cannot be combined with a grid)")
        base_dict = {"preset": base}
    else:
        base_dict = dict(base)
    keys_ = list(grid.keys())
    seed_list = [None] if seeds is None else list(seeds)
    out = []
    for combo in itertools.product(*(list(grid[k]) for k in keys_)):
        for seed in seed_list:
            knobs = dict(zip(keys_, combo))
            if seed is not None:
                knobs["seed"] = seed
            config = dict(base_dict)
            config.update(knobs)
            if "preset" in config:
                # The preset goes first whatever the dict order.
                config = {"preset": config.pop("preset"), **config}
            out.append((knobs, config))
    return out


def _flat(metrics: dict, prefix: str = "") -> dict:
    """Metrics as flat columns: nested dicts joined with dots, lists kept as they are."""
    out = {}
    for k, v in metrics.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


@functools.lru_cache(maxsize=1)
def _renames() -> dict:
    """Old spelling -> the registry's key (``metrics()``'s aliases)."""
    return {old: m["key"] for m in json.loads(_native.metrics()) for old in m["aliases"]}


def _columns(metrics: dict) -> dict:
    """A run's metrics as a sweep's columns: flattened (``_flat``), each figure of the metric
    registry under its one key (``wakeup_latency_us.p99`` is ``wakeup_latency_p99``; see
    ``metrics()``), then the registry's figures that are no field (``governor_right``)."""
    renames = _renames()
    out = {renames.get(k, k): v for k, v in _flat(metrics).items()}
    for key, value in _native.metric_values(json.dumps(metrics)):
        out.setdefault(key, value)
    return out


def _run_metrics(config: dict) -> dict:
    """One sweep point's metrics (module level, so Dask can ship it to its workers)."""
    return json.loads(_native.run(_point(config), False)[0])["metrics"]


def sweep(
    grid: Mapping[str, Sequence[Any]],
    seeds: Optional[Iterable[int]] = None,
    base: Optional[Config] = None,
    client: Any = None,
    threads: int = 0,
):
    """Runs every point of ``grid`` (see ``points``) and returns one row per run: the knobs,
    then every metric, each named metric under its one key (``metrics()``; ``wall_s``, the
    host time, is dropped: it is the only figure that differs between runs of the same
    config). Locally on ``threads`` threads (0: all cores);
    with a ``distributed.Client``, mapped over its workers. The same grid gives the same
    frame, row for row, whichever runs it."""
    import pandas as pd

    pts = points(grid, seeds, base)
    configs = [c for _, c in pts]
    if client is None:
        metrics = [json.loads(t)["metrics"] for t in _native.run_many([_point(c) for c in configs], threads)]
    else:
        # Check every point here first, so a typo fails before anything is shipped.
        for i, c in enumerate(configs):
            try:
                _native.config_pairs(*_point(c))
            except ValueError as e:
                raise ValueError(f"point {i}: {e}") from None
        futures = client.map(_run_metrics, configs, pure=False)
        metrics = client.gather(futures)
    rows = []
    for (knobs, _), m in zip(pts, metrics):
        flat = _columns(m)
        flat.pop("wall_s", None)
        rows.append({**{k: _text(v) if isinstance(v, bool) else v for k, v in knobs.items()}, **flat})
    return pd.DataFrame(rows)
