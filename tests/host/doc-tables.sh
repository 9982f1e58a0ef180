#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/doc-tables.sh GTTLAB [--write]: the tables the code owns, generated into the docs from the
# program itself, never copied by hand:
#   docs/checks.md     the checks (`gttlab --json check --list`: suite, name, description), and every
#                      check named by exactly one bullet of its "In detail" list, which names no other
#   docs/platforms.md  the platforms (`gttlab --json info --platforms`: name, family, generation,
#                      every device id, the model, GVT-g)
#   README.md          the platforms again, their ids counted
#   docs/model.md      each model's boot state (`gttlab --json info --device sim:NAME` for every
#                      platform with a model: device id, GSM, GGTT, aperture, fences, stolen, BDSM)
#   docs/architecture.md  every file of dom0/ (not its host/) with the dom0/ headers it includes,
#                      read from the sources' #include lines
# Each table sits between "<!-- generated: COMMAND -->" and "<!-- end generated -->". Without
# --write: exit 1 naming each document whose table differs from what the program says now (make
# docs writes them). With --write: the tables are rewritten in place.
set -euo pipefail
gttlab=${1:?usage: tests/host/doc-tables.sh GTTLAB [--write]}
mode=${2:-check}
[ -x "$gttlab" ] || { echo "doc-tables: $gttlab is not built (make all)"; exit 2; }
command -v python3 >/dev/null || { echo "doc-tables: python3 is not installed (make deps)"; exit 2; }
checks=$("$gttlab" --json check --list)
platforms=$("$gttlab" --json info --platforms)
models=$(for p in $("$gttlab" info --platforms | awk '$5 ~ /^sim:/ { print $5 }'); do "$gttlab" --json info --device "$p"; done)
CHECKS=$checks PLATFORMS=$platforms MODELS=$models MODE=$mode python3 - <<'PY'
import json, os, re, sys

def checks_table(cs):
    rows = ["| suite | check | what it proves |", "|---|---|---|"]
    rows += ["| %s | `%s` | %s |" % (c["suite"], c["name"], c["description"]) for c in cs]
    return rows

def platforms_table(ps):
    rows = ["| platform | family | gen | device ids | model | GVT-g |", "|---|---|---|---|---|---|"]
    for p in ps:
        rows.append("| `%s` | %s | %s | %s | %s | %s |" % (p["name"], p["family"], p["gen"], ", ".join(p["devids"]),
                    "`sim:%s`" % p["name"] if p["simulated"] else "-", "yes" if p["gvt"] else "no"))
    return rows

def platforms_brief(ps):
    rows = ["| platform | family | gen | device ids | model | GVT-g |", "|---|---|---|---|---|---|"]
    for p in ps:
        rows.append("| `%s` | %s | %s | %d | %s | %s |" % (p["name"], p["family"], p["gen"], len(p["devids"]),
                    "`sim:%s`" % p["name"] if p["simulated"] else "-", "yes" if p["gvt"] else "no"))
    return rows

def mib(n):
    return "%d GiB" % (n >> 30) if n >= 1 << 30 and not n % (1 << 30) else "%d MiB" % (n >> 20)

def models_table(ms):
    rows = ["| sim | device id | GGMS → GSM | GGTT, PTE | aperture | fences | GMS → stolen | BDSM at |",
            "|---|---|---|---|---|---|---|---|"]
    for m in ms:
        rows.append("| `%s` | %s | %d → %s | %s, %d bytes | %s | %d | 0x%x → %s | %s |" % (
            m["platform"], m["device_id"], m["ggms"], mib(m["gsm_size"]), mib(m["ggtt_size"]), m["pte_size"],
            mib(m["aperture_size"]), m["num_fences"], m["gms"], mib(m["stolen_size"]), m["bdsm_offset"]))
    return rows

def replace(path, command, rows):
    text = open(path).read()
    begin, end = "<!-- generated: %s -->" % command, "<!-- end generated -->"
    m = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), text, re.S)
    if not m:
        sys.exit("doc-tables: %s has no table marked '%s' ... '%s'" % (path, begin, end))
    new = text[:m.start(1)] + "\n".join(rows) + "\n" + text[m.end(1):]
    return text, new

def details(text, names):
    # the "In detail" bullets: each starts with the check names it explains, in backquotes
    bad = []
    seen = {}
    for line in text.splitlines():
        m = re.match(r"- ((?:`[a-z0-9-]+`(?:, | and )?)+):", line)
        if not m:
            continue
        for n in re.findall(r"`([a-z0-9-]+)`", m.group(1)):
            seen[n] = seen.get(n, 0) + 1
    for n in names:
        if seen.get(n, 0) != 1:
            bad.append("docs/checks.md: check %s is explained by %d bullets of 'In detail', not one" % (n, seen.get(n, 0)))
    for n in seen:
        if n not in names:
            bad.append("docs/checks.md: 'In detail' explains %s, which is no check" % n)
    return bad

def dom0_includes():
    rows = ["| file | the dom0/ headers it includes |", "|---|---|"]
    for f in sorted(os.listdir("dom0")):
        if not f.endswith(".c"):
            continue
        hs = re.findall(r'^#include "dom0/([a-z0-9_]+\.h)"', open("dom0/" + f).read(), re.M)
        rows.append("| `%s` | %s |" % (f, ", ".join("`%s`" % h for h in hs) or "none"))
    return rows

cs, ps = json.loads(os.environ["CHECKS"]), json.loads(os.environ["PLATFORMS"])
ms = [json.loads(l) for l in os.environ["MODELS"].splitlines() if l.strip()]
stale = []
for path, command, rows in (("docs/checks.md", "gttlab check --list", checks_table(cs)),
                            ("docs/platforms.md", "gttlab info --platforms", platforms_table(ps)),
                            ("docs/model.md", "gttlab info --device sim:NAME", models_table(ms)),
                            ("README.md", "gttlab info --platforms, counted", platforms_brief(ps)),
                            ("docs/architecture.md", "the #include lines of dom0/*.c", dom0_includes())):
    old, new = replace(path, command, rows)
    if os.environ["MODE"] == "--write":
        if new != old:
            open(path, "w").write(new)
            print("doc-tables: %s rewritten from `%s`" % (path, command))
    elif new != old:
        stale.append("doc-tables: %s: the table differs from `%s` (make docs rewrites it)" % (path, command))
bad = stale + details(open("docs/checks.md").read(), [c["name"] for c in cs])
for b in bad:
    print(b)
if bad:
    sys.exit(1)
if os.environ["MODE"] != "--write":
    print("doc-tables: docs/checks.md (%d checks), docs/platforms.md and README.md (%d platforms), docs/model.md (%d models) are the program's own"
          % (len(cs), len(ps), len(ms)))
PY
