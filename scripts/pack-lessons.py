#!/usr/bin/env python3
"""Packs a course folder into the page's lessons.zip: every file under a
top folder named `lessons/`, whatever the course folder is called, in a
fixed order (the same folder gives the same archive).

Usage: python3 scripts/pack-lessons.py COURSE_FOLDER OUT.zip
"""
import os
import sys
import zipfile

if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
    sys.exit(__doc__)
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(os.path.dirname(os.path.abspath(dst)), exist_ok=True)
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            name = os.path.join("lessons", os.path.relpath(path, src)).replace(os.sep, "/")
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as fh:
                z.writestr(info, fh.read())
