"""Replays the merges of real repositories' histories through `git merge-file` and
`prefs merge`, and compares both with what the project committed.

    python3 Benchmarks/replay_merges.py PREFS GIT-DIR... [--per-repo N] [--keep DIR]

For every merge commit with two parents whose merge base exists, each file of a
kind below that both parents changed (and that differs between them) is a case:
BASE, OURS (the first parent), THEIRS (the second) and the committed RESULT. Both
tools merge THEIRS into OURS:

- git: `git merge-file -p OURS BASE THEIRS`;
- prefs: `PREFS merge OURS BASE THEIRS` as git's merge driver runs it (the file is
  merged in place).

A clean merge is compared with RESULT by its bytes and, through `PREFS diff`, by
value; a RESULT that does not read (the committer left conflict markers or a key
given twice in it) is counted apart, not as wrong. A committed result that differs
from git's clean merge is an "evil" merge: the committer changed more than the
merge did, so no tool can be expected to give it; those are counted apart. So is a
conflict the committer "resolved anew": git conflicts, prefs merges cleanly, and
where the two results differ the commit holds a value that neither side had there
(a job copied on one side and updated as the other side updated the rest). So is a
conflict whose commit "dropped a one-sided change": git conflicts, prefs merges
cleanly, and at every path where the two results differ only one side had changed
the value and the commit holds the base's (an object one branch deleted kept, an
item one branch added left out, a whole file taken from one side): the three-way
rule keeps such a change, so no merge that follows it gives that commit. A clean
prefs merge that differs otherwise (the commit took one side's value where both
changed it, or another order) is wrong. A committed file that gives a key twice
(git's line merge keeps an object both branches added) is read as Xcode and
plutil read it, the last value kept. The merged files go to a temporary folder
(or --keep), never into the project.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

KINDS = [
    ("pbxproj", (".pbxproj",)),
    ("plist", (".plist",)),
    ("strings", (".strings",)),
    ("yaml", (".yml", ".yaml")),
    ("json", (".json",)),
]


def kind_of(path):
    for kind, suffixes in KINDS:
        if path.endswith(suffixes):
            return kind
    return None


def git(git_dir, *args, data=False):
    out = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    if out.returncode != 0:
        return None
    return out.stdout if data else out.stdout.decode("utf-8", "replace")


def changed_paths(git_dir, base, commit):
    text = git(git_dir, "diff", "--no-renames", "--name-only", base, commit)
    return set(text.split("\n")) - {""} if text is not None else set()


def cases(git_dir, limit):
    """(merge, base, ours, theirs, path) for each file both sides of a merge changed."""
    log = git(git_dir, "log", "--all", "--merges", "--format=%H %P") or ""
    found = 0
    for line in log.splitlines():
        fields = line.split()
        if len(fields) != 3:
            continue
        merge, ours, theirs = fields
        base = (git(git_dir, "merge-base", ours, theirs) or "").strip()
        if not base or "\n" in base:
            continue
        both = changed_paths(git_dir, base, ours) & changed_paths(git_dir, base, theirs)
        for path in sorted(p for p in both if kind_of(p)):
            yield merge, base, ours, theirs, path
            found += 1
            if found >= limit:
                return


def blob(git_dir, commit, path):
    return git(git_dir, "cat-file", "blob", f"{commit}:{path}", data=True)


def document(prefs, path):
    """The value of a file as JSON (a key given twice keeps its last value), or None
    when it does not read as one document."""
    run = subprocess.run([prefs, "convert", path, "--to", "json", "--allow-duplicate-keys"],
                         capture_output=True, check=False)
    return json.loads(run.stdout) if run.returncode == 0 else None


MISSING = object()


def at(value, path):
    """The value at a key path as `prefs diff` prints it (`a.b\\.c.0`), or MISSING."""
    parts, part, escaped = [], "", False
    for ch in path:
        if escaped:
            part, escaped = part + ch, False
        elif ch == "\\":
            escaped = True
        elif ch == ".":
            parts.append(part)
            part = ""
        else:
            part += ch
    parts.append(part)
    for key in parts:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return MISSING
    return value


def resolved_anew(prefs, files, differences):
    """Whether the committed result of a conflicted merge holds, where prefs' merge
    differs from it, a value that neither side holds there: the committer resolved the
    conflict with something new, which no merge can give."""
    sides = [document(prefs, files[role]) for role in ("ours", "theirs", "result")]
    if any(side is None for side in sides):
        return False
    ours, theirs, result = sides
    for line in differences.decode("utf-8", "replace").splitlines():
        if len(line) < 3 or line[0] not in "~+-" or ": " not in line:
            continue
        path = line[2:].split(": ", 1)[0]
        if path.startswith("["):
            return False
        committed = at(result, path)
        if committed != at(ours, path) and committed != at(theirs, path):
            return True
    return False


def differing_paths(differences):
    """(sign, key path) of each line of `prefs diff` output."""
    for line in differences.decode("utf-8", "replace").splitlines():
        if len(line) >= 3 and line[0] in "~+-" and ": " in line:
            yield line[0], line[2:].split(": ", 1)[0]


def array_item(path):
    """(the array's path, index) when the path's last part is an index, else None."""
    head, _, last = path.rpartition(".")
    return (head, int(last)) if head and last.isdigit() else None


def dropped_one_sided_change(prefs, files, differences):
    """Whether the committed result of a conflicted merge differs from prefs' merge
    only where one side alone changed a value and the commit holds the base's: the
    commit undid a change the three-way rule keeps."""
    docs = {role: document(prefs, files[role]) for role in ("base", "ours", "theirs", "result", "current")}
    if any(doc is None for doc in docs.values()):
        return False
    found = False
    for sign, path in differing_paths(differences):
        if path.startswith("["):
            return False
        found = True
        if one_sided(docs, path):
            continue
        item = array_item(path)
        if item is None or not one_sided(docs, item[0]) and not one_sided_item(docs, sign, path, item[0]):
            return False
    return found


def one_sided(docs, path):
    """Whether only one side changed the value at `path`, prefs' merge holds that
    side's value and the commit holds the base's."""
    base, ours, theirs, result, merged = (at(docs[r], path) for r in ("base", "ours", "theirs", "result", "current"))
    return result == base and merged != base and ((ours == base and merged == theirs)
                                                  or (theirs == base and merged == ours))


def one_sided_item(docs, sign, path, array_path):
    """For an array item in one result only (`-` prefs' merge, `+` the commit; the
    sign of `prefs diff MERGED RESULT`): whether one side alone added it (and the
    commit left it out) or one side alone deleted it (and the commit kept it)."""
    arrays = {role: at(doc, array_path) for role, doc in docs.items()}
    arrays = {role: a if isinstance(a, list) else [] for role, a in arrays.items()}
    item = at(docs["current" if sign == "-" else "result"], path)
    in_base, in_ours, in_theirs = (item in arrays[r] for r in ("base", "ours", "theirs"))
    if in_ours == in_theirs:
        return False
    return (sign == "-" and not in_base) or (sign == "+" and in_base)


def replay(prefs, git_dir, case, folder):
    """The outcome of both tools on one case, or None when the case does not apply."""
    merge, base, ours, theirs, path = case
    texts = [blob(git_dir, c, path) for c in (base, ours, theirs, merge)]
    if any(t is None for t in texts) or texts[1] == texts[2]:
        return None
    name = os.path.basename(path)
    files = {}
    for role, text in zip(("base", "ours", "theirs", "result"), texts):
        os.makedirs(os.path.join(folder, role), exist_ok=True)
        files[role] = os.path.join(folder, role, name)
        with open(files[role], "wb") as f:
            f.write(text)
    labels = ["-L", "ours", "-L", "base", "-L", "theirs"]
    merged = subprocess.run(
        ["git", "merge-file", "-p", *labels, files["ours"], files["base"], files["theirs"]],
        capture_output=True, check=False)
    git_clean = merged.returncode == 0
    git_equal = git_clean and merged.stdout == texts[3]

    current = files["current"] = os.path.join(folder, "current", name)
    os.makedirs(os.path.dirname(current), exist_ok=True)
    with open(current, "wb") as f:
        f.write(texts[1])
    try:
        run = subprocess.run(
            [prefs, "merge", current, files["base"], files["theirs"], *labels],
            capture_output=True, check=False, timeout=300)
    except subprocess.TimeoutExpired:
        # Slower than a merge driver may be: counted as refused, with the reason.
        run = subprocess.CompletedProcess([], 124, b"", b"prefs: error: timed out after 300 s")
    if run.returncode == 0:
        with open(current, "rb") as f:
            result = f.read()
        if result == texts[3]:
            outcome = "exact"
        else:
            same = subprocess.run([prefs, "diff", current, files["result"], "--allow-duplicate-keys"],
                                  capture_output=True, check=False)
            # 1 says the values differ; an error says the committed file does not read
            # (conflict markers or a key given twice were committed), which no merge gives.
            outcome = {0: "equal", 1: "wrong"}.get(same.returncode, "unreadable commit")
            if outcome == "wrong" and not git_clean and resolved_anew(prefs, files, same.stdout):
                outcome = "resolved anew"
            elif outcome == "wrong" and not git_clean and dropped_one_sided_change(prefs, files, same.stdout):
                outcome = "dropped one side"
    elif 1 <= run.returncode <= 127 and b"prefs: error:" not in run.stderr:
        # 1 for conflicts by value; a line merge exits with their number, as git merge-file
        # does; a refusal is an error line, whatever its status.
        outcome = "conflict"
    else:
        outcome = "refused"
    reason = run.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
    return {
        "kind": kind_of(path), "path": path, "merge": merge[:10], "git_clean": git_clean,
        "git_equal": git_equal, "evil": git_clean and not git_equal, "prefs": outcome,
        "reason": reason[0] if reason else "", "folder": folder,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefs")
    parser.add_argument("git_dirs", nargs="+")
    parser.add_argument("--per-repo", type=int, default=150)
    parser.add_argument("--keep")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    prefs = os.path.abspath(args.prefs)
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or scratch
        for git_dir in args.git_dirs:
            repo = os.path.basename(os.path.dirname(os.path.abspath(git_dir))) or git_dir
            for number, case in enumerate(cases(git_dir, args.per_repo)):
                outcome = replay(prefs, git_dir, case, os.path.join(root, repo, str(number)))
                if outcome:
                    outcome["repo"] = repo
                    results.append(outcome)
                    if args.verbose or outcome["prefs"] in ("wrong", "refused"):
                        print(f"  {repo} {outcome['merge']} {outcome['path']}: prefs {outcome['prefs']}"
                              f"{' (' + outcome['reason'] + ')' if outcome['reason'] else ''} in {outcome['folder']}",
                              file=sys.stderr)
    report(results)


def report(results):
    repos = sorted({r["repo"] for r in results})
    print(f"{len(results)} merges from {len(repos)} repositories ({', '.join(repos)})")
    columns = ["cases", "evil", "git clean=commit", "git conflict", "prefs exact", "prefs equal",
               "prefs conflict", "prefs refused", "prefs wrong", "commit resolved anew", "commit dropped one side",
               "commit unreadable",
               "git right, prefs not", "prefs right, git conflict"]
    print("| kind | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    by_kind = collections.defaultdict(list)
    for r in results:
        by_kind[r["kind"]].append(r)
    for kind in [k for k, _ in KINDS] + ["all"]:
        rows = results if kind == "all" else by_kind.get(kind, [])
        if not rows:
            continue
        fair = [r for r in rows if not r["evil"]]
        right = lambda r: r["prefs"] in ("exact", "equal")
        cells = [
            len(rows), sum(r["evil"] for r in rows), sum(r["git_equal"] for r in rows),
            sum(not r["git_clean"] for r in rows),
            sum(r["prefs"] == "exact" for r in rows), sum(r["prefs"] == "equal" for r in rows),
            sum(r["prefs"] == "conflict" for r in rows), sum(r["prefs"] == "refused" for r in rows),
            sum(r["prefs"] == "wrong" for r in fair), sum(r["prefs"] == "resolved anew" for r in rows),
            sum(r["prefs"] == "dropped one side" for r in rows),
            sum(r["prefs"] == "unreadable commit" for r in rows),
            sum(r["git_equal"] and not right(r) for r in rows),
            sum(not r["git_clean"] and right(r) for r in rows),
        ]
        print(f"| {kind} | " + " | ".join(str(c) for c in cells) + " |")
    print("(prefs wrong counts merges that are not evil; 'prefs equal' is equal by value, not by bytes;"
          " 'commit resolved anew': git conflicts, and where prefs' clean merge differs from the commit,"
          " the commit holds a value neither side had; 'commit dropped one side': git conflicts, and where prefs'"
          " clean merge differs from the commit, only one side had changed the value and the commit undid it)")


if __name__ == "__main__":
    main()
