"""Shared fixtures: the CLI binary the package is checked against (the same crate's build)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _test_binary():
    """The `schedscope` binary `cargo test` builds (dev profile, engine optimised): after the
    native layer of ./scripts/test this compiles nothing, and no release build is made."""
    out = subprocess.run(
        ["cargo", "test", "--quiet", "--no-run", "--test", "all", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        if line.startswith("{"):
            m = json.loads(line)
            t = m.get("target", {})
            if m.get("reason") == "compiler-artifact" and t.get("name") == "schedscope" and "bin" in t.get("kind", []):
                if m.get("executable"):
                    return pathlib.Path(m["executable"])
    raise RuntimeError("cargo test --no-run --test all named no schedscope binary")


@pytest.fixture(scope="session")
def cli():
    """Runs `schedscope ARGS...` (SCHEDSCOPE_BIN, else the binary `cargo test` builds)."""
    env = os.environ.get("SCHEDSCOPE_BIN")
    binary = pathlib.Path(env) if env else _test_binary()

    def run(*args, check=True):
        return subprocess.run([str(binary), *args], capture_output=True, text=True, check=check)

    return run
