#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/render-device.sh DICT OUT: render a device dictionary (lava/devices/*.jinja2) with the device
# types of the lava-server package, as a LAVA server would, for lava-run --device. The server is
# not needed: its .deb is downloaded (apt-get download) and its templates used in place.
set -euo pipefail
dict=$1 out=$2
tmp=$(mktemp -d /tmp/gttlab-lava-render.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
types=/usr/share/lava-server/device-types
if [ ! -d "$types" ]; then
	(cd "$tmp" && apt-get download lava-server >/dev/null 2>&1) || { echo "render-device: cannot download lava-server"; exit 1; }
	dpkg-deb -x "$tmp"/lava-server_*.deb "$tmp/x"
	types=$tmp/x/usr/share/lava-server/device-types
fi
python3 - "$dict" "$types" "$out" <<'PY'
import os, sys, jinja2
d, types, out = sys.argv[1:]
env = jinja2.Environment(loader=jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(d)), types]),
                         autoescape=False, trim_blocks=True)
text = env.get_template(os.path.basename(d)).render()
with open(out, "w") as f:
    f.write("# Rendered from lava/devices/%s with lava-server's device types (lava/render-device.sh); do not edit.\n" % os.path.basename(d))
    f.write(text)
PY
