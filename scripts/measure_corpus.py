#!/usr/bin/env python3
"""Measures hc11lab's assembler on a folder of public 68HC11 programs.

The folder holds the programs (not kept in this repository) and a list,
`programs.txt`, one program a line:

    PATH  DIALECT  [SHIPPED.s19]

PATH and SHIPPED are relative to the folder, DIALECT is course, as11 or
asm11 (the one the program was written for); `#` starts a comment. PATH's
first folder is the program's repository. For each program the script runs
`hc11lab asm --dialect DIALECT PATH -o OUT.s19` in that repository
and, where the program ships an S19, compares the bytes at every address
of the two images. It prints one line per program and the counts:

    scripts/measure_corpus.py FOLDER [--hc11lab target/release/hc11lab]

Exit status 0 (it measures, it does not judge).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def s19_bytes(path):
    """The bytes of an S19 file by address (S1, S2 and S3 records)."""
    mem = {}
    with open(path, "r", encoding="latin-1") as f:
        for line in f:
            line = line.strip()
            if len(line) < 4 or line[0] not in "sS" or line[1] not in "123":
                continue
            alen = {"1": 2, "2": 3, "3": 4}[line[1]]
            try:
                raw = bytes.fromhex(line[2:])
            except ValueError:
                continue
            count = raw[0]
            addr = int.from_bytes(raw[1 : 1 + alen], "big")
            data = raw[1 + alen : count]
            for i, b in enumerate(data):
                mem[addr + i] = b
    return mem


def find_hc11lab(given):
    if given:
        return given
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for build in ("release", "debug"):
        p = os.path.join(here, "target", build, "hc11lab")
        if os.path.exists(p):
            return p
    return shutil.which("hc11lab") or "hc11lab"


def first_error(text):
    for line in text.splitlines():
        if line.startswith("error"):
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--hc11lab", help="the hc11lab binary (default: this checkout's build)")
    args = ap.parse_args()
    exe = find_hc11lab(args.hc11lab)
    listing = os.path.join(args.folder, "programs.txt")
    entries = []
    with open(listing, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) not in (2, 3):
                sys.exit(f"{listing}:{n}: write PATH DIALECT [SHIPPED.s19]")
            entries.append(parts + [None] * (3 - len(parts)))
    assembled = shipped = same = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (path, dialect, s19) in enumerate(entries):
            # Run in the program's repository (the first folder of PATH),
            # as a user who cloned it would: some programs include files
            # from the repository's root.
            repo, _, inner = path.partition("/")
            out = os.path.join(tmp, f"{i}.s19")
            r = subprocess.run(
                [os.path.abspath(exe), "asm", "--dialect", dialect, inner, "-o", out],
                capture_output=True,
                text=True,
                errors="replace",
                cwd=os.path.join(args.folder, repo),
            )
            ok = r.returncode == 0 and os.path.exists(out)
            assembled += ok
            note = "assembles" if ok else "FAILS: " + first_error(r.stderr)
            if s19:
                shipped += 1
                if ok:
                    want = s19_bytes(os.path.join(args.folder, s19))
                    got = s19_bytes(out)
                    diff = sorted(a for a in set(want) | set(got) if want.get(a) != got.get(a))
                    if not diff:
                        same += 1
                        note += ", same bytes as the shipped S19"
                    else:
                        note += f", {len(diff)} bytes differ from the shipped S19 (first at ${diff[0]:04X})"
                else:
                    note += " (ships an S19)"
            print(f"{path} [{dialect}]: {note}")
    print()
    print(f"{assembled} of {len(entries)} programs assemble with their dialect")
    print(f"{same} of {shipped} programs that ship an S19 give the same bytes")


if __name__ == "__main__":
    main()
