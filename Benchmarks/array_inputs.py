"""The inputs of the array benchmarks: JSON documents holding one long array of
strings (`list`), as BASE and as the versions that change it in one of these ways:

- `edits`: one item in 50 changed, everywhere (seeded);
- `reversed`: the items in reverse order;
- `shuffled`: the items in a seeded random order;
- `changed`: every item changed;

and, for merges, `current` and `other`: BASE with one item in 50 changed, CURRENT
on even positions of those and OTHER on odd ones (a clean merge); `conflicting`:
BASE with the same items as CURRENT changed otherwise, and one item in 500 removed
(a merge with many small conflicts).

    python3 Benchmarks/array_inputs.py FOLDER [ITEMS]

Writes FOLDER/array-base.json, array-edits.json, ... array-conflicting.json.
"""

import json
import os
import random
import sys


def write(folder, name, items):
    with open(os.path.join(folder, f"array-{name}.json"), "w") as f:
        json.dump({"name": "bench", "list": items}, f, indent=2)
        f.write("\n")


def main():
    folder = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 80000
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(22)
    base = [f"item {i:06}" for i in range(count)]
    write(folder, "base", base)

    edits = list(base)
    for i in range(0, count, 50):
        edits[i + rng.randrange(50) if i + 50 <= count else i] = f"edited {rng.randrange(10**9)}"
    write(folder, "edits", edits)
    write(folder, "reversed", base[::-1])
    shuffled = list(base)
    rng.shuffle(shuffled)
    write(folder, "shuffled", shuffled)
    write(folder, "changed", [f"changed {i:06}" for i in range(count)])

    current, other = list(base), list(base)
    for n, i in enumerate(range(0, count, 50)):
        side = current if n % 2 == 0 else other
        side[i + 25 if i + 25 < count else i] = f"{'current' if n % 2 == 0 else 'other'} {n}"
    write(folder, "current", current)
    write(folder, "other", other)
    conflicting = list(base)
    for n, i in enumerate(range(0, count, 50)):
        if n % 2 == 0 and i + 25 < count:
            conflicting[i + 25] = f"conflicting {n}"
    write(folder, "conflicting", [item for i, item in enumerate(conflicting) if i % 500 != 7])


if __name__ == "__main__":
    main()
