"""Deterministic synthetic preference domains for the benchmark.

Writes XML property lists with Python's plistlib, independent of prefs: the same
seed and scale always give the same bytes. A "domain" is a dictionary of app
sections, each a mix of strings, integers, reals, bools, dates, data, arrays and
nested dictionaries, the way large real domains (editor state, caches, histories)
look. Scale 1 is about 200,000 values and 20 MB of XML.
"""

import datetime
import plistlib
import random
import sys

WORDS = (
    "window frame recent document toolbar sidebar theme font size color accent "
    "history search query bookmark tab session profile sync account server port "
    "path cache limit timeout retry enabled visible hidden layout column width "
    "height zoom scale language region keyboard shortcut action plugin extension"
).split()
ACCENTED = ["Zürich", "café", "naïve", "Ελληνικά", "日本語", "emoji 🎉", "a<b & c>d"]
EPOCH = datetime.datetime(2001, 1, 1)


def text(rng, lo=4, hi=40):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    if rng.random() < 0.05:
        words.append(rng.choice(ACCENTED))
    return " ".join(words)


class Generator:
    def __init__(self, seed, dates_and_data=True):
        self.rng = random.Random(seed)
        self.dates_and_data = dates_and_data
        self.count = 0

    def scalar(self):
        rng = self.rng
        self.count += 1
        kinds = ["str", "str", "int", "int", "real", "bool"]
        if self.dates_and_data:
            kinds += ["date", "data"]
        kind = rng.choice(kinds)
        if kind == "str":
            return text(rng)
        if kind == "int":
            return rng.choice([rng.randint(0, 100), rng.randint(-(2**40), 2**40), rng.randint(-(2**63), 2**63 - 1)])
        if kind == "real":
            return rng.choice([round(rng.uniform(0, 100), 2), rng.uniform(-1e6, 1e6), rng.random() * 10 ** rng.randint(-12, 12)])
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "date":
            # Whole seconds: XML plists cannot hold fractions.
            return EPOCH + datetime.timedelta(seconds=rng.randint(0, 800_000_000))
        return rng.randbytes(rng.choice([8, 32, 64, 200, 400]))

    def key(self, used):
        while True:
            k = rng_key = "".join(w.capitalize() if i else w for i, w in enumerate(self.rng.sample(WORDS, self.rng.randint(1, 3))))
            if rng_key not in used:
                used.add(k)
                return k

    def value(self, depth):
        roll = self.rng.random()
        if depth < 3 and roll < 0.10:
            self.count += 1
            return [self.value(depth + 1) for _ in range(self.rng.randint(0, 8))]
        if depth < 3 and roll < 0.18:
            return self.dictionary(depth + 1, self.rng.randint(0, 8))
        return self.scalar()

    def dictionary(self, depth, size):
        self.count += 1
        used = set()
        return {self.key(used): self.value(depth) for _ in range(size)}

    def domain(self, entries):
        root = {}
        section = 0
        while self.count < entries:
            root[f"section{section:05d}"] = self.dictionary(1, self.rng.randint(10, 40))
            section += 1
        return root


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: generate.py OUT.plist SCALE [--no-dates-data]")
    out, scale = sys.argv[1], float(sys.argv[2])
    generator = Generator(seed=20240601, dates_and_data="--no-dates-data" not in sys.argv)
    domain = generator.domain(int(200_000 * scale))
    with open(out, "wb") as f:
        plistlib.dump(domain, f, fmt=plistlib.FMT_XML, sort_keys=False)
    print(f"{out}: {generator.count} values")


if __name__ == "__main__":
    main()
