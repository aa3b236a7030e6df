"""The three inputs of the merge benchmark: a domain (BASE) and two copies of it,
each with CHANGES seeded scalar changes at different key paths, so that the merge
is clean.

    python3 Benchmarks/merge_inputs.py DOMAIN.plist BASE CURRENT OTHER [CHANGES]

All three are written by plistlib in the same layout (BASE is DOMAIN rewritten).
"""

import datetime
import plistlib
import random
import sys


def scalar_paths(value, path=()):
    """Every path to a scalar, in document order."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from scalar_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from scalar_paths(item, path + (index,))
    else:
        yield path


def changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value < 2**63 - 1 else 0
    if isinstance(value, float):
        return value * 2 + 0.5
    if isinstance(value, str):
        return value + " edited"
    if isinstance(value, datetime.datetime):
        return value + datetime.timedelta(seconds=1)
    if isinstance(value, bytes):
        return value + b"*"
    return value


def edited(domain, paths):
    copy = plistlib.loads(plistlib.dumps(domain, fmt=plistlib.FMT_BINARY, sort_keys=False))
    for path in paths:
        parent = copy
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = changed(parent[path[-1]])
    return copy


def main():
    source, base, current, other = sys.argv[1:5]
    changes = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    with open(source, "rb") as f:
        domain = plistlib.load(f)
    paths = random.Random(20241130).sample(list(scalar_paths(domain)), 2 * changes)
    for out, value in [(base, domain), (current, edited(domain, paths[:changes])), (other, edited(domain, paths[changes:]))]:
        with open(out, "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_XML, sort_keys=False)


if __name__ == "__main__":
    main()
