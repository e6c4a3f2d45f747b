"""Shared fixtures: the CLI binary the package is checked against (the same crate's release build)."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs `schedscope ARGS...` (SCHEDSCOPE_BIN, else target/release/schedscope, built if missing)."""
    binary = pathlib.Path(os.environ.get("SCHEDSCOPE_BIN", ROOT / "target" / "release" / "schedscope"))
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)

    def run(*args, check=True):
        return subprocess.run([str(binary), *args], capture_output=True, text=True, check=check)

    return run
