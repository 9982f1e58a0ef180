#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/lab.sh EFI_APP WORKDIR: a whole LAVA lab on this machine, from Debian's packages, running the
# collection as a lab would (docs/lava.md, "A lab on one machine"):
#   - PostgreSQL and lava-server 2023.01's database (set up by the package's own postinst when it was
#     installed with the database down), the server's HTTP API and pages (gunicorn, as its systemd unit
#     runs it, on 127.0.0.1:LAB_PORT, default 8765), the scheduler, and lava-dispatcher's lava-worker;
#   - a user and token for lavacli, one worker and LAB_DEVICES (default 3) devices of device type qemu,
#     each with gttlab's QEMU dictionary (lava/devices/gttlab-qemu.jinja2);
#   - four jobs submitted at once with lavacli from the rendered qemu template (lava/make-jobs.sh):
#     gttlab.efi on sim:skl, sim:hsw and sim:tgl, and on sim:skl with the application's test-only fault
#     drop-flush; waited for, then judged from what the API gives back (health, log, results) by
#     lava/gate.sh --server: the three must pass, the faulty one must fail naming ggtt-invalidate;
#   - the faulty job's results page of the gttlab suite opened in headless Chromium: the screenshot must
#     not be blank (build/tests/png_stats) and the DOM must name its test cases.
# Everything the script started is stopped at the end (PostgreSQL too when it was down); the database,
# its user, worker and devices stay for the next run. Exit 0 when every gate held.
set -uo pipefail
# Debian's python3 for lava-server and lavacli, not one earlier on PATH (pyenv shims and the like)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
[ $# = 2 ] || { echo "usage: lava/lab.sh EFI_APP WORKDIR" >&2; exit 2; }
app=$(realpath "$1") work=$2
port=${LAB_PORT:-8765} ndev=${LAB_DEVICES:-3} url=http://127.0.0.1:${LAB_PORT:-8765}
stats=$top/build/tests/png_stats
say() { echo "lava-lab: $*"; }
die() { say "$*"; exit 1; }
for t in lava-server lava-worker lavacli gunicorn3 pg_ctlcluster qemu-system-x86_64 mformat chromium timeout; do
	command -v "$t" >/dev/null || { say "$t is not installed (make lava-lab installs the packages)"; exit 2; }
done
[ -x "$stats" ] || { say "$stats is missing (make $stats)"; exit 2; }
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")

pids=() pg_started=""
teardown() {
	local p
	for p in "${pids[@]}"; do
		kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null
	done
	[ -f "$work/gunicorn.pid" ] && kill "$(cat "$work/gunicorn.pid")" 2>/dev/null
	[ -n "$pg_started" ] && pg_ctlcluster $pg_started stop
	say "torn down: worker, scheduler and server stopped${pg_started:+, PostgreSQL $pg_started stopped}"
}
trap teardown EXIT

# the database: the cluster up, then lava-server's settings (its postinst skips them while it is down)
cluster=$(pg_lsclusters -h | head -1)
[ -n "$cluster" ] || die "no PostgreSQL cluster (the postgresql package makes one)"
read -r ver name _ status _ <<<"$cluster"
if [ "$status" != online ]; then
	pg_ctlcluster "$ver" "$name" start || die "PostgreSQL $ver/$name does not start"
	pg_started="$ver $name"
fi
if [ ! -s /etc/lava-server/settings.d/00-database.yaml ]; then
	say "lava-server has no database yet: its postinst, with PostgreSQL up"
	dpkg-reconfigure -f noninteractive lava-server > "$work/postinst.log" 2>&1 ||
		die "lava-server's postinst failed: $(tail -3 "$work/postinst.log" | tr '\n' ' ')"
	# job logs of an earlier database would be appended to by the new one's jobs of the same number
	rm -rf /var/lib/lava-server/default/media/job-output/*
fi

# the server: the API and pages, as lava-server-gunicorn.service runs them
(cd / && gunicorn3 lava_server.wsgi --log-level INFO --log-file "$work/gunicorn.log" -u lavaserver -g lavaserver \
	--worker-class eventlet --workers 2 --bind "127.0.0.1:$port" --daemon --pid "$work/gunicorn.pid") ||
	die "gunicorn did not start (log: $work/gunicorn.log)"
for i in $(seq 60); do
	version=$(curl -sf "$url/api/v0.2/system/version/") && break
	sleep 1
done
[ -n "${version:-}" ] || die "the server does not answer on $url (log: $work/gunicorn.log)"
say "lava-server up on $url: $version"

# the lab: a user and token for lavacli, the worker, the devices with gttlab's QEMU dictionary
manage() { lava-server manage "$@"; }
# has KIND NAME: the server lists NAME among its KIND (read whole: grep -q's early exit is a SIGPIPE under pipefail)
has() { local l; l=$(manage "$1" list --all 2>/dev/null); grep -qw -- "$2" <<<"$l"; }
has users gttlab-lab ||
	manage users add --superuser --staff --passwd "$(head -c 12 /dev/urandom | base64)" gttlab-lab >/dev/null ||
	die "cannot add the lab's user"
# the user's first token, made once
token=$(manage tokens list --user gttlab-lab 2>/dev/null | sed -n 's/^\* \([0-9a-z]*\) .*/\1/p' | head -1)
[ -n "$token" ] || token=$(manage tokens add --user gttlab-lab 2>/dev/null | tail -1)
[ -n "$token" ] || die "cannot make a token for gttlab-lab"
has workers gttlab-worker || manage workers add gttlab-worker >/dev/null ||
	die "cannot add the worker"
wtoken=$(manage shell -c "from lava_scheduler_app.models import Worker; print(Worker.objects.get(hostname='gttlab-worker').token)" 2>/dev/null | tail -1)
has device-types qemu || manage device-types add qemu >/dev/null ||
	die "cannot add the qemu device type"
devs=()
for i in $(seq 1 "$ndev"); do
	d=$(printf "gttlab-qemu-%02d" "$i")
	devs+=("$d")
	has devices "$d" ||
		manage devices add --device-type qemu --worker gttlab-worker "$d" >/dev/null || die "cannot add device $d"
	cp "$here/devices/gttlab-qemu.jinja2" "/etc/lava-server/dispatcher-config/devices/$d.jinja2"
done
lavacli identities add --uri "$url/RPC2" --username gttlab-lab --token "$token" gttlab-lab ||
	die "lavacli cannot keep the identity"
lc() { lavacli -i gttlab-lab "$@"; }
say "devices: $(manage devices list 2>/dev/null | grep -c 'gttlab-qemu-') of type qemu on worker gttlab-worker, each with lava/devices/gttlab-qemu.jinja2"

# the scheduler and the worker, in their own sessions (stopped as groups)
setsid lava-server manage lava-scheduler --level INFO --log-file "$work/scheduler.log" \
	> "$work/scheduler.out" 2>&1 < /dev/null &
pids+=($!)
setsid lava-worker --level INFO --url "$url/" --token "$wtoken" --name gttlab-worker --log-file "$work/worker.log" \
	--worker-dir "$work/dispatcher" > "$work/worker.out" 2>&1 < /dev/null &
pids+=($!)

# the jobs: the qemu template rendered for each ESP, submitted at once
. "$here/esp.sh"
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$work/vars.fd"
names=(skl hsw tgl skl-fault) ids=()
for j in "${names[@]}"; do
	cfg="--device sim:${j%-fault} --debug-exit" title="gttlab.efi on sim:${j%-fault}"
	[ "$j" = skl-fault ] && cfg+=" --fault drop-flush" title+=" with --fault drop-flush"
	make_esp "$work/esp-$j.img" "$app" "$cfg" || die "cannot make the ESP for $j"
	"$here/make-jobs.sh" "$work/jobs-$j" "$app" "$work/esp-$j.img" "$work/vars.fd" "$title" ||
		die "cannot make the jobs for $j"
	id=$(lc jobs submit "$work/jobs-$j/qemu.yaml") || die "the server refused the $j job"
	ids+=("$id")
	say "submitted job $id: $title"
done
t0=$(date +%s)
while :; do
	left=0 line=""
	for k in "${!ids[@]}"; do
		st=$(lc jobs show "${ids[$k]}" --yaml | sed -n 's/^state: //p')
		line+=" ${ids[$k]}:$st"
		[ "$st" = Finished ] || left=$((left + 1))
	done
	[ "$left" = 0 ] && break
	[ $(( $(date +%s) - t0 )) -gt 900 ] && die "jobs unfinished after 900 s:$line"
	say "$(( $(date +%s) - t0 )) s:$line"
	sleep 10
done
say "every job finished in $(( $(date +%s) - t0 )) s, on $(for id in "${ids[@]}"; do lc jobs show "$id" --yaml | sed -n 's/^device: //p'; done | sort -u | wc -l) devices"

# the gates, from the API: each job's health, log and results
rc=0
for k in "${!ids[@]}"; do
	id=${ids[$k]} j=${names[$k]}
	health=$(lc jobs show "$id" --yaml | sed -n 's/^health: //p')
	lc jobs logs --raw "$id" > "$work/job-$id.log" && lc results "$id" --yaml > "$work/job-$id.results" ||
		die "job $id: the API gave no log or results"
	out=$("$here/gate.sh" --server "$work/job-$id.log" "$work/job-$id.results" "$health")
	grc=$?
	say "job $id ($j): $out"
	if [ "$j" = skl-fault ]; then
		if [ "$grc" = 0 ]; then
			say "job $id: the gate passed a run whose checks failed"; rc=1
		elif ! grep -q 'failing test cases: .*ggtt-invalidate' <<<"$out"; then
			say "job $id: the gate failed the faulty run without naming ggtt-invalidate"; rc=1
		fi
		fault_id=$id
	elif [ "$grc" != 0 ]; then
		rc=1
	fi
done

# the pages: the faulty job's gttlab suite as a lab engineer opens it
page=$url/results/$fault_id/gttlab
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/chromium" \
	--window-size=1280,1600 --screenshot="$work/results-$fault_id.png" "$page" > /dev/null 2> "$work/chromium.err" &&
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium" --dump-dom "$page" \
		> "$work/results-$fault_id.html" 2>> "$work/chromium.err" || die "chromium did not open $page"
shot=$("$stats" "$work/results-$fault_id.png") || die "no screenshot of $page"
read -r dims ink colours <<<"$shot"
w=${dims%x*} h=${dims#*x} ink=${ink#ink=} colours=${colours#colours=}
if [ "$ink" -le $((w * h / 50)) ] || [ "$colours" -lt 8 ]; then
	say "the results page $page is blank in the screenshot ($shot)"; rc=1
fi
missing=""
for c in ggtt_pte_readback ggtt_invalidate fence_x_detile aperture_rw shadow_copy_switch; do
	grep -q ">$c<" "$work/results-$fault_id.html" || missing+=" $c"
done
grep -q 'fail' "$work/results-$fault_id.html" || missing+=" (a fail result)"
if [ -n "$missing" ]; then
	say "the results page $page does not show:$missing"; rc=1
else
	say "the results page $page shows the test cases and the failure ($shot)"
fi
[ "$rc" = 0 ] && say "every gate held: 3 jobs passed, the faulty one failed naming ggtt-invalidate, its page shows it"
exit "$rc"
