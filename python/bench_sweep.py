"""Times a 64-point sweep locally (all cores, then one thread) and on a 2-worker Dask
LocalCluster, and checks the three frames are equal. A script, not a test:

    .venv/bin/python python/bench_sweep.py [preset] [loops]

Prints one line per way with its wall time and the ratio to the local all-cores run."""

import sys
import time

import pandas as pd

import schedscope

preset = sys.argv[1] if len(sys.argv) > 1 else "nohz-pipe"
loops = sys.argv[2] if len(sys.argv) > 2 else "20000"
grid = {"hz": [100, 250, 300, 1000], "nohz_exit_reprograms": [1, 2], "loops": [loops, str(2 * int(loops))]}
seeds = [1, 2, 3, 4]


def timed(label, **kw):
    t = time.perf_counter()
    df = schedscope.sweep(grid, seeds=seeds, base=preset, **kw)
    return label, time.perf_counter() - t, df


def main():
    # Dask's worker processes import this file again: the work runs only here.
    rows = [timed("local, all cores"), timed("local, 1 thread", threads=1)]
    from distributed import Client, LocalCluster  # noqa: E402  (the optional extra)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            schedscope.sweep({"hz": [100]}, base="intro", client=client)  # warm the workers' imports
            rows.append(timed("Dask LocalCluster, 2 workers", client=client))
    base = rows[0][1]
    for label, secs, df in rows:
        pd.testing.assert_frame_equal(df, rows[0][2])
        print(f"{label:32s} {len(df)} points  {secs:7.2f} s  x{base / secs:.2f} of local all cores")
    print("frames identical: yes")


if __name__ == "__main__":
    main()
