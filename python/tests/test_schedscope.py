"""The Python package against the CLI: same digests, same messages, same sweeps locally, threaded and on Dask."""

import json
import threading

import pandas as pd
import pytest

import schedscope


def test_a_preset_run_has_the_cli_digest(cli):
    # The bar: schedscope.run({"preset": "nohz-pipe"}) == `run --preset nohz-pipe --json`.
    want = json.loads(cli("run", "--preset", "nohz-pipe", "--json").stdout)["metrics"]
    got = schedscope.run({"preset": "nohz-pipe"})
    assert got.digest == want["digest"]
    assert got.metrics["context_switches"] == want["context_switches"]
    assert got.metrics["elapsed_s"] == want["elapsed_s"]


def test_keys_apply_in_order_and_values_may_be_python_values(cli):
    want = json.loads(cli("run", "--preset", "intro", "--set", "hz=1000", "--set", "nohz=off", "--json").stdout)
    got = schedscope.run({"preset": "intro", "hz": 1000, "nohz": False})
    assert got.digest == want["metrics"]["digest"]
    assert got.config == want["config"]


def test_a_share_link_is_the_same_config():
    link = "https://example.org/schedscope/?v=1&preset=intro&hz=1000"
    assert schedscope.run(link).digest == schedscope.run({"preset": "intro", "hz": "1000"}).digest
    assert schedscope.run("v=1&preset=intro&hz=1000").digest == schedscope.run(link).digest
    assert schedscope.run("intro").digest == schedscope.run({"preset": "intro"}).digest


@pytest.mark.parametrize(
    "config, flags",
    [
        ({"cores": "999"}, ["--set", "cores=999"]),
        ({"nosuchkey": "1"}, ["--set", "nosuchkey=1"]),
        ({"preset": "nope"}, ["--preset", "nope"]),
        ({"kernel": "1.0"}, ["--set", "kernel=1.0"]),
    ],
)
def test_bad_keys_raise_value_error_with_the_cli_message(cli, config, flags):
    out = cli("run", *flags, check=False)
    assert out.returncode == 2
    message = out.stderr.strip().splitlines()[0].removeprefix("error: ")
    with pytest.raises(ValueError) as e:
        schedscope.run(config)
    assert str(e.value) == message


def test_a_bad_link_names_what_it_could_not_use():
    with pytest.raises(ValueError, match=r"^the link has parts that cannot be used: cores=9999: "):
        schedscope.run("v=1&preset=intro&cores=9999")
    with pytest.raises(TypeError):
        schedscope.run(42)


def test_the_trace_frames_agree_with_the_raw_trace():
    r = schedscope.run({"preset": "intro"}, trace=True)
    raw = r._trace
    spans, marks, tasks = r.spans, r.instants, r.tasks
    assert len(spans) == len(raw["spans"]) and len(marks) == len(raw["instants"])
    assert list(spans.columns[:4]) == ["core", "start_ns", "end_ns", "kind"]
    assert (spans["end_ns"] > spans["start_ns"]).all()
    # On-CPU time per task, summed here from the raw JSON, is the tasks frame's.
    for i, info in enumerate(raw["tasks"]):
        ns = sum(s["end"] - s["start"] for s in raw["spans"] if s["kind"]["type"] == "run" and s["kind"]["task"] == i)
        row = tasks[tasks["task"] == i].iloc[0]
        assert row["name"] == info["name"]
        assert row["runtime_s"] == pytest.approx(ns / 1e9, abs=1e-12)
    assert tasks["wakeups"].sum() == sum(1 for m in raw["instants"] if m["kind"]["type"] == "wakeup")
    with pytest.raises(ValueError, match="trace=True"):
        _ = schedscope.run({"preset": "intro"}).spans


def test_keys_presets_and_validate_list_what_the_cli_lists(cli):
    help_text = cli("help").stdout
    keys = schedscope.keys()
    assert {"name", "group", "values", "default", "help"} <= set(keys.columns)
    for name in keys["name"]:
        assert f"    {name} = " in help_text, name
    names = set(schedscope.presets()["name"])
    listed = cli("presets").stdout
    assert names and all(n in listed for n in names)
    tables = schedscope.validate(quick=True)
    assert {t["preset"] for t in tables} == set(schedscope.presets().query("table")["name"])


GRID = {"hz": [100, 250, 300, 1000], "cores": [1, 2, 4, 8]}


def test_points_are_the_cartesian_product_in_order():
    pts = schedscope.points({"a": [1, 2], "b": ["x", "y"]}, seeds=[7, 8], base="intro")
    assert [k for k, _ in pts][:3] == [{"a": 1, "b": "x", "seed": 7}, {"a": 1, "b": "x", "seed": 8}, {"a": 1, "b": "y", "seed": 7}]
    assert len(pts) == 8 and list(pts[0][1])[0] == "preset"
    for bad in [{}, {"hz": "100"}, {"hz": 5}]:
        with pytest.raises(ValueError):
            schedscope.points(bad)


def test_a_sweep_is_the_same_on_one_thread_and_on_all(cli):
    one = schedscope.sweep(GRID, seeds=[1, 2], base="intro", threads=1)
    every = schedscope.sweep(GRID, seeds=[1, 2], base="intro")
    pd.testing.assert_frame_equal(one, every)
    assert len(one) == 32 and list(one.columns[:3]) == ["hz", "cores", "seed"]
    assert "wall_s" not in one.columns and "digest" in one.columns
    # A row is the CLI's run of that point.
    row = one.iloc[5]
    want = json.loads(
        cli("run", "--preset", "intro", "--set", f"hz={row['hz']}", "--set", f"cores={row['cores']}",
            "--set", f"seed={row['seed']}", "--json").stdout
    )["metrics"]
    assert row["digest"] == want["digest"] and row["ticks"] == want["ticks"]


def test_metrics_list_the_registry_and_a_sweep_has_each_under_its_one_key(cli):
    reg = schedscope.metrics()
    assert {"key", "title", "unit", "better", "count", "panel", "help", "aliases"} <= set(reg.columns)
    assert reg["key"].iloc[0] == "throughput" and reg["key"].is_unique
    frame = schedscope.sweep({"hz": [250, 1000]}, base="intro", threads=1)
    for key in reg["key"]:
        assert key in frame.columns, key
    for old in (a for aliases in reg["aliases"] for a in aliases):
        assert old not in frame.columns, old
    want = json.loads(cli("run", "--preset", "intro", "--set", "hz=1000", "--json").stdout)["metrics"]
    row = frame.iloc[1]
    assert row["wakeup_latency_p99"] == want["wakeup_latency_us"]["p99"]
    assert row["governor_too_deep"] == want["governor_score"]["too_deep"]
    assert row["wakeup_latency_us.count"] == want["wakeup_latency_us"]["count"], "an unnamed field keeps its path"


def test_a_dict_key_holding_equals_is_one_unknown_key():
    with pytest.raises(ValueError, match=r"^cores=2: unknown key"):
        schedscope.run({"cores=2": 1})


def test_a_typo_in_a_sweep_fails_before_anything_runs():
    with pytest.raises(ValueError, match=r"^point 0: cores: "):
        schedscope.sweep({"cores": [999, 2]})


def test_runs_in_python_threads_run_side_by_side():
    # The GIL is released while the engine runs: two threads both finish, with the same answers.
    out = {}

    def go(i):
        out[i] = schedscope.run({"preset": "nohz-pipe", "loops": str(20000 + i % 2)}).digest

    threads = [threading.Thread(target=go, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0] == out[2] and out[1] == out[3] and out[0] != out[1]


def test_a_sweep_on_a_two_worker_dask_cluster_is_the_local_sweep():
    distributed = pytest.importorskip("distributed")
    grid = dict(GRID)
    local = schedscope.sweep(grid, seeds=[1, 2, 3, 4], base="intro")
    assert len(local) == 64
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            remote = schedscope.sweep(grid, seeds=[1, 2, 3, 4], base="intro", client=client)
            with pytest.raises(ValueError, match=r"^point 0: "):
                schedscope.sweep({"cores": [999]}, client=client)
    pd.testing.assert_frame_equal(local, remote)


def _readme_blocks():
    """The ```python blocks of README.md's "Python and Dask" section, in order."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = text.split("## Python and Dask", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_examples_run():
    # The README's examples, as written: the local one, then the Dask one (a LocalCluster).
    blocks = _readme_blocks()
    assert len(blocks) == 2, blocks
    scope = {}
    exec(compile(blocks[0], "README.md (Python example)", "exec"), scope)
    assert isinstance(scope["df"], pd.DataFrame) and len(scope["df"]) == 3 * 2 * 5
    assert scope["r"].tasks["runtime_s"].sum() > 0
    exec(compile(blocks[1], "README.md (Dask example)", "exec"), scope)
    local = schedscope.sweep({"hz": [100, 250, 300, 1000], "cores": [1, 2, 4, 8]}, seeds=range(4), base="intro")
    pd.testing.assert_frame_equal(scope["df"], local)
