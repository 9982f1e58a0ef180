#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/device-kinds.sh DICT: the kinds of device a gttlab device dictionary declares its runs must be
# taken on, one a line, from its line
#   {% set gttlab_device_kinds = ['hardware'] %}
# or, when it has none, from the dictionary it extends when that is beside it (gttlab-pv-guest1.jinja2
# extends gttlab-pv-guest.jinja2). The words are those of every gttlab report: hardware, "hardware,
# GVT-g guest", simulated, "vGPU on the simulated device", "pv guest" (docs/checks.md). Exit 2, one
# line, when the dictionary declares none: a device whose kind nobody declared cannot be judged.
set -uo pipefail
dict=${1:?usage: lava/device-kinds.sh DICT}
f=$dict
for _ in 1 2 3; do
	[ -f "$f" ] || break
	line=$(grep -o "{% set gttlab_device_kinds = \[[^]]*\] %}" "$f" | head -1)
	if [ -n "$line" ]; then
		grep -o "'[^']*'" <<<"$line" | tr -d "'"
		exit 0
	fi
	parent=$(sed -n "s/.*{% extends '\([^']*\)' %}.*/\1/p" "$f" | head -1)
	[ -n "$parent" ] || break
	f=$(dirname "$f")/$parent
done
echo "device-kinds: $dict declares no {% set gttlab_device_kinds = [...] %}: the kind of device its runs must be taken on" >&2
exit 2
