#!/usr/bin/env python3
"""Per-query wall time of forex against hyena0 on hyena0's ORHLE files, side by side.

    scripts/latency_vs_hyena0.py [--runs N] [FOREX_BINARY]

Each file runs N times (default 3) in each tool, alternating, and the median is shown;
the last line gives both medians over the files and their ratio. hyena0 gets 10 s per
file (it deepens forever on files without an observation bound) and forex
`--timeout 10`. Environment: HYENA0 (the binary, default
../shared/peers/hyena0/hyena0), ORHLE (the folder, default
../shared/benchmarks/hyena0/orhle), YICES_DIR (the folder of the real yices binary, put
first on PATH; a Python launcher shim adds ~50 ms per query to hyena0).
"""
import glob, json, os, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
args = sys.argv[1:]
runs = 3
if args[:1] == ["--runs"]:
    runs, args = int(args[1]), args[2:]
forex = args[0] if args else os.path.join(root, "target/release/forex")
hyena0 = os.environ.get("HYENA0", os.path.join(root, "../shared/peers/hyena0/hyena0"))
orhle = os.environ.get("ORHLE", os.path.join(root, "../shared/benchmarks/hyena0/orhle"))
if os.environ.get("YICES_DIR"):
    os.environ["PATH"] = os.environ["YICES_DIR"] + os.pathsep + os.environ["PATH"]


def timed(cmd, limit=None):
    """Wall time and result of `cmd`; past `limit` seconds it is killed (no `timeout`
    wrapper: its own process start would count against only one of the tools)."""
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired as e:
        p = subprocess.CompletedProcess(cmd, 124, e.stdout or "", e.stderr or "")
        if isinstance(p.stdout, bytes):
            p.stdout = p.stdout.decode(errors="replace")
    return time.perf_counter() - start, p


rows = []
for f in sorted(glob.glob(os.path.join(orhle, "*", "*"))):
    hy, fx = [], []
    for _ in range(runs):
        t, hp = timed([hyena0, f], limit=10)
        hy.append(t)
        t, fp = timed([forex, "prove", "-q", "--timeout", "10", "--format", "json", f])
        fx.append(t)
    try:
        r = json.loads(fp.stdout)["results"][0]
        fv = f'{r["verdict"]}/{r["engine"]}'
    except (ValueError, KeyError, IndexError):
        fv = "?"
    if '"counterexample":true' in hp.stdout:
        hv = "cex"
    elif '"counterexample":false' in hp.stdout:
        hv = "no cex"
    else:
        hv = f"exit {hp.returncode}"
    name = os.path.relpath(f, orhle)
    rows.append((statistics.median(hy), statistics.median(fx)))
    print(f"{name:42} hyena0 {rows[-1][0]*1e3:8.1f} ms {hv:7} forex {rows[-1][1]*1e3:8.1f} ms {fv}",
          flush=True)
if rows:
    h = statistics.median(r[0] for r in rows)
    x = statistics.median(r[1] for r in rows)
    print(f"median per query: hyena0 {h*1e3:.1f} ms, forex {x*1e3:.1f} ms, forex/hyena0 {x/h:.2f}")
