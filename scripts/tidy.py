#!/usr/bin/env python3
"""clang-tidy (.clang-tidy's checks) over every translation unit of the modules, tests/ and
bench/ in BUILD/compile_commands.json (every unit of this repository's own sources), and over
the project's headers they include. Prints each warning
and exits 1 when there is any, so CI holds the code at zero.

A unit that passed is remembered by the hash of its preprocessed text, the clang-tidy
version and .clang-tidy (under $XDG_CACHE_HOME/ibburn-tidy, as ccache remembers objects):
clang-tidy costs ~6 s a unit here, preprocessing ~0.3 s, so an unchanged tree is checked in
a minute instead of ~15 on two cores, and any change to a unit or a header it includes is
checked again.

usage: scripts/tidy.py [BUILD]   (BUILD: a configured build dir, default: build)
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message, code=2):
    print(f"tidy: {message}", file=sys.stderr)
    sys.exit(code)


def preprocessed_hash(entry, salt):
    """The unit as the compiler sees it, with every header expanded (the build's own flags)."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    # Drop the launcher (ccache), the output and dependency-file options; preprocess to stdout.
    args = [a for a in args if os.path.basename(a) != "ccache"]
    cmd, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        cmd.append(a)
    cmd += ["-E", "-P"]
    text = subprocess.run(cmd, cwd=entry["directory"], check=True, capture_output=True).stdout
    # The checkout's own path (in __FILE__ and the tests' source-dir macros) is not the unit's
    # content: without it, a clone elsewhere (CI's) reuses what this one checked.
    return hashlib.sha256(salt + text.replace(ROOT.encode(), b"<root>")).hexdigest()


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    db_path = os.path.join(build, "compile_commands.json")
    if not os.path.isfile(db_path):
        fail(f"no {db_path} (configure the build first)")
    tidy = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
    if not tidy:
        fail("clang-tidy not found (Debian: apt-get install clang-tidy)")
    # The repository's own sources: the folders git tracks C++ in (no list to drift from the
    # module graph), not what a build dir generates (the header checks' units, CMake's probes).
    tracked = subprocess.run(["git", "-C", ROOT, "ls-files", "--", "*.h", "*.cpp", "*.cu"],
                             check=True, capture_output=True, text=True).stdout.split()
    names = "|".join(sorted({p.split("/")[0] for p in tracked if "/" in p}))
    unit_re = re.compile(rf"^{re.escape(ROOT)}/({names})/.*\.(cpp|cu)$")
    header_filter = rf"^{ROOT}/({names})/.*\.h$"
    with open(db_path) as f:
        entries = {}
        for e in json.load(f):
            path = os.path.normpath(os.path.join(e["directory"], e["file"]))
            # .cu units go through nvcc, which clang-tidy cannot read; their C++ twin
            # (gpu_memory_stub.cpp) is checked where CUDA is absent.
            if unit_re.match(path) and path.endswith(".cpp"):
                entries.setdefault(path, e)
    version = subprocess.run([tidy, "--version"], capture_output=True, text=True).stdout
    salt = (version + header_filter.replace(ROOT, "<root>")).encode()
    configs = subprocess.run(["git", "-C", ROOT, "ls-files", "--", ".clang-tidy", "*/.clang-tidy"],
                             check=True, capture_output=True, text=True).stdout.split()
    for config in sorted(configs):  # every .clang-tidy git tracks (today only the root's)
        with open(os.path.join(ROOT, config), "rb") as f:
            salt += config.encode() + f.read()
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ibburn-tidy")
    os.makedirs(cache, exist_ok=True)

    def check(path):
        key = preprocessed_hash(entries[path], salt)
        mark = os.path.join(cache, key)
        if os.path.exists(mark):
            return path, True, ""
        r = subprocess.run([tidy, "-quiet", "-p", build, f"-header-filter={header_filter}", path],
                           capture_output=True, text=True)
        warnings = sorted(set(l for l in (r.stdout + r.stderr).splitlines()
                              if re.match(r"^/.*: (warning|error): ", l)))
        if not warnings and r.returncode == 0:
            open(mark, "w").close()
        return path, False, "\n".join(warnings) or (r.stderr if r.returncode else "")

    cached = 0
    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, hit, out in pool.map(check, sorted(entries)):
            cached += hit
            if out:  # as they come: a run cut short still shows what it found
                print(out, file=sys.stderr, flush=True)
                problems.append(out)
    if problems:
        fail(f"warnings in {len(problems)} unit(s) above (checks: .clang-tidy)", 1)
    print(f"tidy: {len(entries)} units, no warning ({cached} unchanged since they last passed)")


if __name__ == "__main__":
    main()
