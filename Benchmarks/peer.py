"""The Python peer: plistlib for property lists, PyYAML with libyaml (CSafeLoader,
CSafeDumper) for YAML, json for JSON with the same typed objects prefs writes
({"$date": …}, {"$data": …}), so that each direction does the same work.

usage: peer.py FROM TO IN OUT   (FROM/TO: xml, binary, json, yaml; OUT - is standard output)
"""

import base64
import datetime
import json
import plistlib
import sys

import yaml


def read(fmt, path):
    with open(path, "rb") as f:
        if fmt in ("xml", "binary"):
            return plistlib.load(f)
        if fmt == "yaml":
            return yaml.load(f, Loader=yaml.CSafeLoader)
        return json.load(f, object_hook=typed_object)


def typed_object(obj):
    if len(obj) == 1:
        if "$date" in obj:
            return datetime.datetime.fromisoformat(obj["$date"].replace("Z", "+00:00")).replace(tzinfo=None)
        if "$data" in obj:
            return base64.b64decode(obj["$data"])
    return obj


def json_default(value):
    if isinstance(value, datetime.datetime):
        return {"$date": value.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(value, bytes):
        return {"$data": base64.b64encode(value).decode("ascii")}
    raise TypeError(type(value).__name__)


def without_zone(value):
    # PyYAML gives aware datetimes for `Z`; plistlib wants naive UTC.
    if isinstance(value, dict):
        return {k: without_zone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_zone(v) for v in value]
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return value


def write(fmt, value, path):
    with (open(sys.stdout.fileno(), "wb", closefd=False) if path == "-" else open(path, "wb")) as f:
        if fmt in ("xml", "binary"):
            plistlib.dump(value, f, fmt=plistlib.FMT_XML if fmt == "xml" else plistlib.FMT_BINARY, sort_keys=False)
        elif fmt == "yaml":
            yaml.dump(value, f, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True, encoding="utf-8")
        else:
            f.write(json.dumps(value, default=json_default, ensure_ascii=False, indent=2).encode("utf-8"))


def main():
    source, target, src, dst = sys.argv[1:5]
    value = read(source, src)
    if source == "yaml" and target in ("xml", "binary"):
        value = without_zone(value)
    write(target, value, dst)


if __name__ == "__main__":
    main()
