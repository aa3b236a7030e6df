"""Times prefs against its peers on a large synthetic domain and on the tutorial's tiny one,
`prefs apply --check` over a store of 200 domains, edits and merges of the large domain
(with their peak memory), and `diff -u` and `merge` of long arrays changed everywhere.

    python3 Benchmarks/bench.py [--prefs PATH] [--baseline PATH] [--out DIR] [--reps N] [--tiny-reps N]

Peers: Python's plistlib with PyYAML over libyaml (CSafeLoader/CSafeDumper), run by
this interpreter directly (not through a shim); `plutil` from the Swift toolchain
(property lists and JSON, where it can hold the data); `plistutil` from libplist
(XML and binary). A peer that is not installed is reported as missing.

Every tool converts the same input files to a file. Repetitions go round-robin over
the tools so that a noisy neighbour slows everyone alike; the table gives the median
wall time, the peak resident memory (from wait4), and the ratio peer time / prefs time.

With --baseline, another prefs binary (an earlier commit's) runs every conversion too,
in the same round-robin, and a last table gives prefs time / baseline time per case:
how a change moved the speed, measured alternately on one machine in one run.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEER = os.path.join(HERE, "peer.py")
GENERATE = os.path.join(HERE, "generate.py")
MERGE_INPUTS = os.path.join(HERE, "merge_inputs.py")
ARRAY_INPUTS = os.path.join(HERE, "array_inputs.py")


# MARK: Running


def run(argv, ok=(0,)):
    """Runs argv once; returns (seconds, CPU seconds, peak RSS in bytes, error text or None).
    An exit status outside `ok` is an error (`diff` and `merge` exit 1 for a difference
    or a conflict)."""
    err_path = os.path.join(OUT_TMP, "stderr.txt")
    with open(err_path, "wb") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        with open(err_path, "rb") as f:
            return elapsed, cpu, usage.ru_maxrss * 1024, f"exit {code}: " + f.read().decode("utf-8", "replace").strip()[:300]
    return elapsed, cpu, usage.ru_maxrss * 1024, None


class Result:
    def __init__(self):
        self.times = []
        self.rss = []
        self.cpu = []
        self.error = None

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None

    @property
    def peak(self):
        return max(self.rss) if self.rss else None


def measure(tools, reps, ok=(0,)):
    """tools: {name: argv or None (missing) or str (cannot do it)}; returns {name: Result or str}.

    One round more than `reps` is run and the first is not counted: it pays for
    cold page caches and CPU frequency ramps that no later run sees. Dirty pages are
    flushed (untimed) before each run, so that no tool pays for writing back the
    output of the one before it."""
    results = {name: (Result() if isinstance(argv, list) else argv) for name, argv in tools.items()}
    for round_number in range(reps + 1):
        for name, argv in tools.items():
            result = results[name]
            if not isinstance(result, Result) or result.error:
                continue
            os.sync()
            seconds, cpu, rss, error = run(argv, ok)
            if error:
                result.error = error
            elif round_number > 0:
                result.times.append(seconds)
                result.rss.append(rss)
                result.cpu.append(cpu)
    return results


def measure_fresh(argv, source, work, reps):
    """Times argv, which changes `work`, after copying `source` over it (untimed) before each run."""
    result = Result()
    for round_number in range(reps + 1):
        shutil.copyfile(source, work)
        os.sync()
        seconds, cpu, rss, error = run(argv)
        if error:
            result.error = error
            break
        if round_number > 0:
            result.times.append(seconds)
            result.rss.append(rss)
            result.cpu.append(cpu)
    return result


# MARK: Tools


def find_plutil():
    for candidate in [shutil.which("plutil"), "/opt/swift/usr/bin/plutil"]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    swift = shutil.which("swift")
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "plutil")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def python_peer_problem(python):
    check = "import yaml, plistlib, json; yaml.CSafeLoader; yaml.CSafeDumper"
    try:
        subprocess.run([python, "-c", check], check=True, capture_output=True)
        return None
    except subprocess.CalledProcessError:
        return "missing (PyYAML with libyaml not importable)"


def version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (out.stdout + out.stderr).strip().splitlines()[0]
    except Exception:
        return "?"


# MARK: Data


def prepare(prefs, python, data):
    """Generates the domains and the other formats of them; returns their paths."""
    os.makedirs(data, exist_ok=True)
    paths = {}

    def generate(name, scale, *flags):
        path = os.path.join(data, name)
        if not os.path.exists(path):
            subprocess.run([python, GENERATE, path, str(scale), *flags], check=True, stdout=subprocess.DEVNULL)
        return path

    paths["xml"] = generate("domain.plist", 1)
    paths["xml2"] = generate("domain-x2.plist", 2)
    paths["plain_xml"] = generate("plain.plist", 1, "--no-dates-data")
    paths["tiny_xml"] = os.path.join(data, "tiny.plist")
    shutil.copyfile(os.path.join(ROOT, "Samples", "UserSettings.plist"), paths["tiny_xml"])
    # The other formats are made by prefs once, up front (every tool reads them).
    for source, stem in [("xml", "domain"), ("xml2", "domain-x2"), ("plain_xml", "plain")]:
        for fmt, ext in [("binary", "bplist"), ("yaml", "yaml"), ("json", "json")]:
            key = source.replace("xml", fmt) if source != "plain_xml" else "plain_" + fmt
            path = os.path.join(data, f"{stem}.{ext}")
            if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(paths[source]):
                subprocess.run([prefs, "convert", paths[source], "--to", fmt, "-o", path], check=True)
            paths[key] = path
    return paths


def prepare_store(prefs, data, domains=200, keys=100):
    """A store of `domains` domains of `keys` keys each (seeded), and a settings file of
    all of them made by `prefs export`: what `apply --check` reads on a machine that matches."""
    import plistlib
    import random

    store = os.path.join(data, f"store-{domains}x{keys}")
    settings = os.path.join(data, f"settings-{domains}x{keys}.yaml")
    names = [f"com.example.bench{i:03}" for i in range(domains)]
    if not os.path.exists(settings):
        os.makedirs(store, exist_ok=True)
        rng = random.Random(7)
        for name in names:
            contents = {}
            for k in range(keys):
                kind = k % 6
                if kind == 0:
                    contents[f"string{k}"] = f"value {rng.randrange(10**6)}"
                elif kind == 1:
                    contents[f"integer{k}"] = rng.randrange(-10**9, 10**9)
                elif kind == 2:
                    contents[f"real{k}"] = rng.random() * 1000
                elif kind == 3:
                    contents[f"bool{k}"] = rng.random() < 0.5
                elif kind == 4:
                    contents[f"list{k}"] = [f"item {rng.randrange(100)}" for _ in range(3)]
                else:
                    contents[f"window{k}"] = {"width": rng.randrange(2000), "height": rng.randrange(2000),
                                              "frame": {"x": rng.randrange(100), "y": rng.randrange(100)}}
            with open(os.path.join(store, name + ".plist"), "wb") as f:
                plistlib.dump(contents, f, fmt=plistlib.FMT_XML)
        subprocess.run([prefs, "export", *names, "--defaults-dir", store, "-o", settings], check=True)
    return store, settings


# MARK: Cases


def cases(paths, prefs, python, plutil, plistutil, peer_problem):
    out = lambda name: os.path.join(OUT_TMP, name)

    def p(src, fmt, ext):
        return [prefs, "convert", src, "--to", fmt, "-o", out("prefs." + ext)]

    def py(src_fmt, dst_fmt, src, ext):
        if peer_problem:
            return peer_problem
        return [python, PEER, src_fmt, dst_fmt, src, out("python." + ext)]

    def pl(fmt, src, ext, why=None):
        if why:
            return why
        return [plutil, "-convert", fmt, "-o", out("plutil." + ext), src] if plutil else "missing"

    def pu(fmt, src, ext):
        return [plistutil, "-i", src, "-o", out("plistutil." + ext), "-f", fmt] if plistutil else "missing"

    no_dates = "cannot: no JSON form for dates and data"
    return [
        ("XML → YAML", "xml", {"prefs": p(paths["xml"], "yaml", "yaml"), "python": py("xml", "yaml", paths["xml"], "yaml")}),
        ("YAML → XML", "yaml", {"prefs": p(paths["yaml"], "xml", "plist"), "python": py("yaml", "xml", paths["yaml"], "plist")}),
        ("binary → YAML", "binary", {"prefs": p(paths["binary"], "yaml", "yaml"), "python": py("binary", "yaml", paths["binary"], "yaml")}),
        ("XML → JSON", "xml", {"prefs": p(paths["xml"], "json", "json"), "python": py("xml", "json", paths["xml"], "json"), "plutil": no_dates}),
        ("XML → JSON (no dates/data)", "plain_xml", {
            "prefs": p(paths["plain_xml"], "json", "json"),
            "python": py("xml", "json", paths["plain_xml"], "json"),
            "plutil": pl("json", paths["plain_xml"], "json")}),
        ("JSON → XML", "json", {"prefs": p(paths["json"], "xml", "plist"), "python": py("json", "xml", paths["json"], "plist"), "plutil": no_dates}),
        ("JSON → XML (no dates/data)", "plain_json", {
            "prefs": p(paths["plain_json"], "xml", "plist"),
            "python": py("json", "xml", paths["plain_json"], "plist"),
            "plutil": pl("xml1", paths["plain_json"], "plist")}),
        ("XML → binary", "xml", {
            "prefs": p(paths["xml"], "binary", "bplist"),
            "python": py("xml", "binary", paths["xml"], "bplist"),
            "plutil": pl("binary1", paths["xml"], "bplist"),
            "plistutil": pu("bin", paths["xml"], "bplist")}),
        ("binary → XML", "binary", {
            "prefs": p(paths["binary"], "xml", "plist"),
            "python": py("binary", "xml", paths["binary"], "plist"),
            "plutil": pl("xml1", paths["binary"], "plist"),
            "plistutil": pu("xml", paths["binary"], "plist")}),
    ]


def tiny_cases(paths, prefs, python, plutil, plistutil, peer_problem):
    out = lambda name: os.path.join(OUT_TMP, name)
    tiny = paths["tiny_xml"]
    return [
        # To standard output (/dev/null here): start-up and the conversion, as `prefs
        # textconv` under `git log -p` and `prefs read` in a script loop pay them.
        ("tiny: XML → YAML, to stdout", "tiny_xml", {
            "prefs": [prefs, "convert", tiny, "--to", "yaml"],
            "python": peer_problem or [python, PEER, "xml", "yaml", tiny, "-"]}),
        ("tiny: XML → binary, to stdout", "tiny_xml", {
            "prefs": [prefs, "convert", tiny, "--to", "binary"],
            "python": peer_problem or [python, PEER, "xml", "binary", tiny, "-"],
            "plistutil": [plistutil, "-i", tiny, "-o", "-", "-f", "bin"] if plistutil else "missing"}),
        # To a file: prefs writes it durably (temporary file, fsync, rename, fsync of
        # the folder); the peers write in place without fsync.
        ("tiny: XML → YAML", "tiny_xml", {
            "prefs": [prefs, "convert", tiny, "--to", "yaml", "-o", out("t.yaml")],
            "python": peer_problem or [python, PEER, "xml", "yaml", tiny, out("tp.yaml")]}),
        ("tiny: XML → JSON", "tiny_xml", {
            "prefs": [prefs, "convert", tiny, "--to", "json", "-o", out("t.json")],
            "python": peer_problem or [python, PEER, "xml", "json", tiny, out("tp.json")],
            "plutil": [plutil, "-convert", "json", "-o", out("tl.json"), tiny] if plutil else "missing"}),
        ("tiny: XML → binary", "tiny_xml", {
            "prefs": [prefs, "convert", tiny, "--to", "binary", "-o", out("t.bplist")],
            "python": peer_problem or [python, PEER, "xml", "binary", tiny, out("tp.bplist")],
            "plistutil": [plistutil, "-i", tiny, "-o", out("tu.bplist"), "-f", "bin"] if plistutil else "missing"}),
    ]


# MARK: Report

PEERS = ["python", "plutil", "plistutil"]


def seconds(t):
    return f"{t * 1000:.2f} ms" if t < 0.01 else f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def mb(n):
    return f"{n / 1e6:.0f} MB" if n >= 10e6 else f"{n / 1e6:.1f} MB"


def cell(result, prefs_time):
    if isinstance(result, str):
        return result
    if result.error:
        return "failed: " + result.error.splitlines()[0][:80]
    ratio = result.median / prefs_time if prefs_time else float("nan")
    return f"{seconds(result.median)}, {mb(result.peak)} (**{ratio:.1f}x**)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefs", default=os.path.join(ROOT, ".build", "release", "prefs"))
    parser.add_argument("--baseline", help="an earlier prefs binary to time alternately against this one")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench-out"))
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--tiny-reps", type=int, default=60)
    args = parser.parse_args()

    global OUT_TMP
    OUT_TMP = os.path.join(args.out, "tmp")
    os.makedirs(OUT_TMP, exist_ok=True)
    prefs = os.path.abspath(args.prefs)
    if not os.access(prefs, os.X_OK):
        sys.exit(f"bench: no prefs binary at {prefs} (run: swift build -c release --product prefs)")
    baseline_prefs = os.path.abspath(args.baseline) if args.baseline else None
    if baseline_prefs and not os.access(baseline_prefs, os.X_OK):
        sys.exit(f"bench: no baseline binary at {baseline_prefs}")
    # The interpreter itself, never a shim (pyenv's python3 is a shell script).
    python = os.path.realpath(sys.executable)
    plutil = find_plutil()
    plistutil = shutil.which("plistutil")
    problem = python_peer_problem(python)

    started = time.time()
    print("Generating the domains (deterministic, seeded)…", flush=True)
    paths = prepare(prefs, python, os.path.join(args.out, "data"))
    sizes = {key: os.path.getsize(path) for key, path in paths.items()}

    lines = []
    say = lambda text="": (print(text, flush=True), lines.append(text))

    commit = version(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except Exception:
        pass
    say("# prefs benchmark")
    say()
    say(f"- machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    say(f"- prefs: {os.path.relpath(prefs, ROOT)} (commit {commit})")
    if baseline_prefs:
        say(f"- baseline: {baseline_prefs}, timed alternately with prefs on every conversion")
    say(f"- python: {platform.python_version()} (the interpreter itself, not a shim), "
        f"PyYAML with libyaml: {'no' if problem else 'yes'}")
    say(f"- plutil: {plutil or 'missing'}")
    say(f"- plistutil: {(plistutil + ' (' + version([plistutil, '-v']) + ')') if plistutil else 'missing'}")
    say(f"- domain: {sizes['xml'] / 1e6:.1f} MB XML plist ({sizes['binary'] / 1e6:.1f} MB binary, "
        f"{sizes['yaml'] / 1e6:.1f} MB YAML, {sizes['json'] / 1e6:.1f} MB JSON); about 200,000 values; "
        f"date- and data-free variant {sizes['plain_xml'] / 1e6:.1f} MB; tiny: the tutorial's three keys "
        f"({sizes['tiny_xml']} bytes)")
    say(f"- {args.reps} runs per tool on the big domain, {args.tiny_reps} on the tiny one, after one uncounted warm-up run, with dirty pages flushed before each; "
        "median wall time (and prefs' CPU time: it reads and writes a large document on up to 4 threads), "
        "peak RSS; (Nx) = peer wall time / prefs wall time")
    say()
    say("| conversion | prefs | RSS / input | python (plistlib + PyYAML/libyaml) | plutil | plistutil |")
    say("|---|---|---|---|---|---|")

    rows = {}
    for name, source, tools in cases(paths, prefs, python, plutil, plistutil, problem) + tiny_cases(
        paths, prefs, python, plutil, plistutil, problem
    ):
        reps = args.tiny_reps if name.startswith("tiny") else args.reps
        if baseline_prefs:
            tools = dict(tools, baseline=[baseline_prefs if a == prefs else a for a in tools["prefs"]])
        results = measure(tools, reps)
        rows[name] = results
        mine = results["prefs"]
        if mine.error:
            say(f"| {name} | failed: {mine.error} | | | | |")
            continue
        t = mine.median
        rss = f"{mine.peak / sizes[source]:.1f}x" if not name.startswith("tiny") else mb(mine.peak)
        peers = [cell(results[p], t) if p in results else "" for p in PEERS]
        cpu_time = statistics.median(mine.cpu)
        say(f"| {name} | {seconds(t)} (CPU {seconds(cpu_time)}), {mb(mine.peak)} | {rss} | " + " | ".join(peers) + " |")

    # Against an earlier binary: the same cases, timed in the same round-robin.
    if baseline_prefs:
        say()
        say("Against the baseline (prefs time / baseline time; below 1.00x is faster):")
        say()
        say("| conversion | prefs | baseline | prefs / baseline |")
        say("|---|---|---|---|")
        for name, results in rows.items():
            mine, theirs = results["prefs"], results["baseline"]
            if mine.error or theirs.error:
                say(f"| {name} | | | failed: {(mine.error or theirs.error).splitlines()[0][:80]} |")
                continue
            say(f"| {name} | {seconds(mine.median)} | {seconds(theirs.median)} | {mine.median / theirs.median:.3f}x |")

    # Settings files: checking a machine against one, as CI and monitoring do.
    store, settings = prepare_store(prefs, os.path.join(args.out, "data"))
    check = measure({"prefs": [prefs, "apply", settings, "--check", "--defaults-dir", store]}, args.tiny_reps)["prefs"]
    say()
    say("Settings files (prefs only):")
    say()
    say("| command | wall time | CPU | RSS |")
    say("|---|---|---|---|")
    if check.error:
        say(f"| apply --check, 200 domains × 100 keys | failed: {check.error} | | |")
    else:
        say(f"| apply --check, 200 domains × 100 keys ({os.path.getsize(settings) / 1e6:.1f} MB settings file) | "
            f"{seconds(check.median)} | {seconds(statistics.median(check.cpu))} | {mb(check.peak)} |")

    # Scaling: the same directions on a domain twice as large.
    say()
    say("Doubling the domain (prefs only):")
    say()
    say("| conversion | 1x | 2x | time 2x / 1x | RSS / input at 2x |")
    say("|---|---|---|---|---|")
    scaling = {}
    for name, src, fmt, ext, key in [
        ("XML → YAML", "xml2", "yaml", "yaml", "xml"),
        ("YAML → XML", "yaml2", "xml", "plist", "yaml"),
        ("binary → YAML", "binary2", "yaml", "yaml", "binary"),
        ("XML → JSON", "xml2", "json", "json", "xml"),
        ("JSON → XML", "json2", "xml", "plist", "json"),
        ("XML → binary", "xml2", "binary", "bplist", "xml"),
        ("binary → XML", "binary2", "xml", "plist", "binary"),
    ]:
        result = measure({"prefs": [prefs, "convert", paths[src], "--to", fmt, "-o", os.path.join(OUT_TMP, "x2." + ext)]}, args.reps)["prefs"]
        one = rows[name]["prefs"]
        if result.error or one.error:
            say(f"| {name} | | failed | | |")
            continue
        scaling[name] = result.median / one.median
        say(f"| {name} | {seconds(one.median)} | {seconds(result.median)} | {scaling[name]:.2f}x | "
            f"{result.peak / sizes[src]:.1f}x |")

    # Editing one value of the big domain in place, against reading and writing it whole.
    say()
    say("Editing the big XML domain in place (prefs only; the file is copied afresh, untimed, before each run):")
    say()
    say("| command | time | CPU | RSS / input |")
    say("|---|---|---|---|")
    work = os.path.join(OUT_TMP, "edit.plist")
    baseline = measure({"prefs": [prefs, "convert", paths["xml"], "--to", "xml", "-o", work]}, args.reps)["prefs"]
    edits = {
        "set a nested key": [prefs, "set", work, "section00005.benchKey", "5", "--type", "integer"],
        "set a top-level key": [prefs, "set", work, "benchKey", "5", "--type", "integer"],
    }
    # The same edits of the YAML domain, and a removal in each: peak memory against the input.
    yaml_work = os.path.join(OUT_TMP, "edit.yaml")
    memory_edits = {
        "remove a nested key": ("xml", work, [prefs, "remove", work, "section00005.cache"]),
        "YAML: set a nested key": ("yaml", yaml_work, [prefs, "set", yaml_work, "section00005.benchKey", "5", "--type", "integer"]),
        "YAML: remove a nested key": ("yaml", yaml_work, [prefs, "remove", yaml_work, "section00005.cache"]),
    }
    edit_results = {}
    rows_to_time = [("read + write (convert XML → XML)", "xml", work, None)]
    rows_to_time += [(label, "xml", work, argv) for label, argv in edits.items()]
    rows_to_time += [(label, source, target, argv) for label, (source, target, argv) in memory_edits.items()]
    for label, source, target, argv in rows_to_time:
        result = baseline if argv is None else measure_fresh(argv, paths[source], target, args.reps)
        edit_results[label] = result
        if result.error:
            say(f"| {label} | failed: {result.error} | | |")
            continue
        say(f"| {label} | {seconds(result.median)} | {seconds(statistics.median(result.cpu))} | "
            f"{result.peak / sizes[source]:.1f}x |")
    # Merging: three versions of the domain, 1,000 scalar changes on each side, against
    # a plain read of each of the three inputs (`prefs get`, one small key printed).
    data = os.path.join(args.out, "data")
    merge_paths = [os.path.join(data, f"merge-{name}.plist") for name in ("base", "current", "other")]
    if not all(os.path.exists(p) for p in merge_paths):
        subprocess.run([python, MERGE_INPUTS, paths["xml"], *merge_paths, "1000"], check=True)
    merge_out = os.path.join(OUT_TMP, "merged.plist")
    tools = {"merge": [prefs, "merge", merge_paths[1], merge_paths[0], merge_paths[2], "-o", merge_out]}
    for name, path in zip(("base", "current", "other"), merge_paths):
        tools["read " + name] = [prefs, "get", path, "section00000"]
    merged = measure(tools, args.reps)
    say()
    say("Merging (prefs only): the 20 MB XML domain with 1,000 changes on each side (clean), "
        "against a plain read (`prefs get`) of each input:")
    say()
    merge_ratio = None
    if any(isinstance(r, Result) and r.error for r in merged.values()):
        say("- failed: " + "; ".join(r.error for r in merged.values() if isinstance(r, Result) and r.error))
    else:
        reads = sum(merged["read " + n].median for n in ("base", "current", "other"))
        merge_ratio = merged["merge"].median / reads
        say(f"- merge: {seconds(merged['merge'].median)} (CPU {seconds(statistics.median(merged['merge'].cpu))}), "
            f"{mb(merged['merge'].peak)}; three reads: {seconds(reads)}; merge / reads: {merge_ratio:.2f}x")

    # Long arrays: 80,000 strings changed in ways that defeat a bounded search (edits
    # everywhere, reversed, shuffled, all changed), in `diff -u` and in `merge`.
    arrays = os.path.join(data, "arrays")
    if not os.path.exists(os.path.join(arrays, "array-conflicting.json")):
        subprocess.run([python, ARRAY_INPUTS, arrays, "80000"], check=True)
    array = lambda name: os.path.join(arrays, f"array-{name}.json")
    array_rows = {}
    for name in ["edits", "reversed", "shuffled", "changed"]:
        array_rows[f"diff -u: {name}"] = [prefs, "diff", "-u", array("base"), array(name)]
    for name in ["other", "conflicting", "edits", "reversed", "shuffled", "changed"]:
        array_rows[f"merge: current with {name}"] = [
            prefs, "merge", array("current"), array("base"), array(name), "-o", os.path.join(OUT_TMP, "array-merged.json")]
    say()
    say(f"Long arrays (prefs only): {os.path.getsize(array('base')) / 1e6:.1f} MB JSON of 80,000 strings; "
        "`edits` changes one item in 50, `current` and `other` one in 50 each elsewhere, "
        "`conflicting` the items `current` changes, otherwise, and removes one in 500:")
    say()
    say("| command | time | CPU | RSS |")
    say("|---|---|---|---|")
    array_results = {}
    for label, argv in array_rows.items():
        result = measure({"prefs": argv}, args.reps, ok=(0, 1))["prefs"]
        array_results[label] = result
        if result.error:
            say(f"| {label} | failed: {result.error} | | |")
            continue
        say(f"| {label} | {seconds(result.median)} | {seconds(statistics.median(result.cpu))} | {mb(result.peak)} |")

    # The targets of the issue, judged from the numbers above.
    say()
    say("Targets:")
    say()

    def ratio(row, peer):
        r = rows.get(row, {}).get(peer)
        mine = rows.get(row, {}).get("prefs")
        if not isinstance(r, Result) or r.error or not r.times or mine.error:
            return None
        return r.median / mine.median

    def judge(text, value, goal):
        if value is None:
            say(f"- {text}: not measured (peer missing or failed)")
        else:
            say(f"- {text}: {value:.1f}x, {'met' if value >= goal else 'MISSED'}")

    judge("XML → YAML ≥ 10x python", ratio("XML → YAML", "python"), 10)
    judge("binary → YAML ≥ 10x python", ratio("binary → YAML", "python"), 10)
    judge("YAML → XML ≥ 10x python", ratio("YAML → XML", "python"), 10)
    judge("XML → JSON ≥ 5x python", ratio("XML → JSON", "python"), 5)
    judge("XML → JSON ≥ 2x plutil (no dates/data)", ratio("XML → JSON (no dates/data)", "plutil"), 2)
    judge("XML → binary ≥ 10x plistutil", ratio("XML → binary", "plistutil"), 10)
    judge("binary → XML no slower than plistutil", ratio("binary → XML", "plistutil"), 1)
    judge("tiny domain end to end ≥ 10x python", ratio("tiny: XML → YAML", "python"), 10)
    judge("tiny domain to stdout ≥ 20x python", ratio("tiny: XML → YAML, to stdout", "python"), 20)
    tiny = rows.get("tiny: XML → YAML, to stdout", {}).get("prefs")
    if isinstance(tiny, Result) and not tiny.error:
        say(f"- tiny domain to stdout ≤ 2.5 ms: {tiny.median * 1000:.2f} ms, {'met' if tiny.median <= 0.0025 else 'MISSED'}")
    if not check.error:
        say(f"- apply --check over 200 domains of 100 keys < 1 s: {seconds(check.median)}, "
            f"{'met' if check.median < 1 else 'MISSED'}")
    worst_rss = max(
        (rows[n]["prefs"].peak / sizes[s], n)
        for n, s, _ in cases(paths, prefs, python, plutil, plistutil, problem)
        if not rows[n]["prefs"].error
    )
    say(f"- peak RSS < 5x input: worst {worst_rss[0]:.1f}x ({worst_rss[1]}), {'met' if worst_rss[0] < 5 else 'MISSED'}")
    for label in edits:
        result = edit_results[label]
        if not result.error and not baseline.error:
            factor = result.median / baseline.median
            say(f"- one `set` ({label}) ≤ 1.5x a read and write: {factor:.2f}x, {'met' if factor <= 1.5 else 'MISSED'}")
    if scaling:
        worst = max((v, n) for n, v in scaling.items())
        say(f"- doubling the input ≤ ~2.2x the time: worst {worst[0]:.2f}x ({worst[1]}), "
            f"{'met' if worst[0] <= 2.2 else 'MISSED'}")
    if merge_ratio is not None:
        say(f"- merging ≤ 3x a plain read of its three inputs: {merge_ratio:.2f}x, "
            f"{'met' if merge_ratio <= 3 else 'MISSED'}")
    timed = [(r.median, label) for label, r in array_results.items() if not r.error]
    if timed:
        worst = max(timed)
        say(f"- `diff -u` and `merge` of 80,000-item arrays ≤ 2 s: worst {seconds(worst[0])} ({worst[1]}), "
            f"{'met' if worst[0] <= 2 else 'MISSED'}")
    peaks = [(edit_results[label].peak / sizes[source], label)
             for label, source, _, argv in rows_to_time if argv is not None and not edit_results[label].error]
    if peaks:
        worst = max(peaks)
        say(f"- `set`/`remove` peak ≤ 6x the input: worst {worst[0]:.1f}x ({worst[1]}), "
            f"{'met' if worst[0] <= 6 else 'MISSED'}")
    say()
    say(f"({time.time() - started:.0f} s in all; reproduce with `make bench`)")

    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"\nwritten to {os.path.join(args.out, 'results.md')}")
    shutil.rmtree(OUT_TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
