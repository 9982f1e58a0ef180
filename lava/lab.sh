#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/lab.sh EFI_APP WORKDIR: a whole LAVA lab on this machine, from Debian's packages, running the
# collection as a lab would (docs/lava.md, "A lab on one machine"):
#   - a state of its own, made for the run under WORKDIR and nowhere else: a PostgreSQL cluster (initdb, on a
#     free port), lava-server 2023.01's database migrated into it, its settings from the environment (the
#     database, a secret key, the media, device dictionaries and log under WORKDIR), lavacli's identity; the
#     server's HTTP API and pages (gunicorn, as its systemd unit runs it, on 127.0.0.1 at a free port, or
#     LAB_PORT), the scheduler, and lava-dispatcher's lava-worker. Nothing is read from the system's database
#     or /etc/lava-server's state, and nothing is left there: the next run starts from nothing, whether this
#     one passed, failed or was killed half way (its processes are stopped first);
#   - a user and token for lavacli, one worker and LAB_DEVICES (default 3) devices of device type qemu,
#     each with gttlab's QEMU dictionary (lava/devices/gttlab-qemu.jinja2);
#   - four jobs submitted at once with lavacli from the rendered qemu template (lava/make-jobs.sh):
#     gttlab.efi on sim:skl, sim:hsw and sim:tgl, and FAULTS_EFI_APP (the test build's application, the
#     only one that has model faults) on sim:skl with the fault drop-flush; waited for, then judged from what the API gives back (health, log, results) by
#     lava/gate.sh --server: the three must pass, the faulty one must fail naming ggtt-invalidate;
#   - the faulty job's results page of the gttlab suite opened in headless Chromium: the screenshot must
#     not be blank (build/tests/png_stats) and the DOM must name its test cases.
# Everything the script started is stopped at the end; WORKDIR keeps the logs for a look. Exit 0 when every
# gate held.
set -uo pipefail
# Debian's python3 for lava-server and lavacli, not one earlier on PATH (pyenv shims and the like)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
[ $# = 3 ] || { echo "usage: lava/lab.sh EFI_APP FAULTS_EFI_APP WORKDIR" >&2; exit 2; }
app=$(realpath "$1") faulty=$(realpath "$2") work=$3
ndev=${LAB_DEVICES:-3}
stats=$top/build/tests/png_stats
say() { echo "lava-lab: $*"; }
die() { say "$*"; exit 1; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] || { say "PostgreSQL's initdb is not installed (make lava-lab installs postgresql)"; exit 2; }
for t in lava-server lava-worker lavacli gunicorn3 runuser qemu-system-x86_64 mformat chromium timeout python3; do
	command -v "$t" >/dev/null || { say "$t is not installed (make lava-lab installs the packages)"; exit 2; }
done
[ -x "$stats" ] || { say "$stats is missing (make $stats)"; exit 2; }

# A run killed half way leaves its processes behind: stop them (their pids and the cluster are in WORKDIR)
# before WORKDIR goes, so that nothing of the last run holds a port or a file of this one.
if [ -d "$work" ]; then
	for f in "$work"/*.pid; do
		[ -f "$f" ] && kill -- -"$(cat "$f")" 2>/dev/null; [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	[ -f "$work/pg/data/postmaster.pid" ] &&
		runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1
	sleep 1
fi
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")

# free_port: a TCP port nothing listens on now (the kernel's choice)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=${LAB_PORT:-$(free_port)} pgport=$(free_port)
url=http://127.0.0.1:$port

pids=()
teardown() {
	local p
	for p in "${pids[@]}"; do
		kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null
	done
	if [ -f "$work/gunicorn.pid" ]; then
		p=$(cat "$work/gunicorn.pid")
		kill "$p" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
	fi
	[ -f "$work/pg/data/postmaster.pid" ] && runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -m fast stop >/dev/null 2>&1
	say "torn down: worker, scheduler, server and the lab's PostgreSQL stopped; its state stays in $work for a look"
}
trap teardown EXIT

# The lab's own PostgreSQL: a cluster made for this run in WORKDIR (initdb, as the postgres user, which a
# server must not run as root), on a free port, its socket in WORKDIR too. The system's clusters, if any, are
# not touched.
mkdir -p "$work/pg/run" && chown -R postgres: "$work/pg"
runuser -u postgres -- "$pgbin/initdb" -D "$work/pg/data" -A trust -U postgres --no-sync > "$work/pg/initdb.log" 2>&1 ||
	die "initdb failed: $(tail -3 "$work/pg/initdb.log" | tr '\n' ' ')"
runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
	-o "-p $pgport -k $work/pg/run -c listen_addresses=127.0.0.1 -c fsync=off" start > /dev/null ||
	die "the lab's PostgreSQL does not start (log: $work/pg/server.log)"
dbpass=$(head -c 12 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9')
psql() { runuser -u postgres -- "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -v ON_ERROR_STOP=1 -q "$@"; }
psql -c "CREATE ROLE lavaserver LOGIN PASSWORD '$dbpass'" -c "CREATE DATABASE lavaserver OWNER lavaserver" ||
	die "cannot make the lab's database"
say "PostgreSQL: a cluster of its own in $work/pg, on 127.0.0.1:$pgport"

# lava-server's settings, all from the environment (lava_server/settings/prod.py reads LAVA_SETTINGS_*,
# LAVA_YAML_SETTINGS_* after /etc/lava-server's files, so these win over whatever a system lab keeps there):
# the database above, a secret key, and every path it writes under WORKDIR
export DATABASE_URL="postgres://lavaserver:$dbpass@127.0.0.1:$pgport/lavaserver" INSTANCE_NAME=gttlab-lab
export LAVA_YAML_SETTINGS_DATABASES="{default: {ENGINE: django.db.backends.postgresql, NAME: lavaserver, USER: lavaserver, PASSWORD: '$dbpass', HOST: 127.0.0.1, PORT: '$pgport'}}"
export LAVA_SETTINGS_SECRET_KEY=$(head -c 33 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9')
export LAVA_SETTINGS_MEDIA_ROOT=$work/media/ LAVA_SETTINGS_DEVICES_PATH=$work/devices
export LAVA_SETTINGS_HEALTH_CHECKS_PATH=$work/health-checks LAVA_SETTINGS_DJANGO_LOGFILE=$work/django.log
export XDG_CONFIG_HOME=$work/xdg		# lavacli's identities
mkdir -p "$work/media" "$work/devices" "$work/health-checks" "$work/xdg"
manage() { lava-server manage "$@"; }
manage migrate --noinput > "$work/migrate.log" 2>&1 || die "lava-server's migrations failed: $(tail -3 "$work/migrate.log" | tr '\n' ' ')"

# The check the lab used to decide whether the qemu device type existed read `device-types list --all`, which
# also lists the templates a type could be made from: on a fresh database it said "qemu" was there, the type
# was never added and every device add failed. Shown here, on this fresh database, then the right question.
all_types=$(manage device-types list --all 2>/dev/null) types=$(manage device-types list 2>/dev/null)
grep -qw qemu <<<"$all_types" && ! grep -qw qemu <<<"$types" ||
	die "the fresh database does not show the old device-type check's mistake (list --all: $(grep -cw qemu <<<"$all_types"), list: $(grep -cw qemu <<<"$types"))"
say "a fresh database: 'device-types list --all' names qemu (a template), 'device-types list' does not (no type yet): the old check would have skipped the add"

# the server: the API and pages, as lava-server-gunicorn.service runs them
(cd / && gunicorn3 lava_server.wsgi --log-level INFO --log-file "$work/gunicorn.log" \
	--worker-class eventlet --workers 2 --bind "127.0.0.1:$port" --daemon --pid "$work/gunicorn.pid") ||
	die "gunicorn did not start (log: $work/gunicorn.log)"
for i in $(seq 60); do
	version=$(curl -sf "$url/api/v0.2/system/version/") && break
	sleep 1
done
[ -n "${version:-}" ] || die "the server does not answer on $url (log: $work/gunicorn.log)"
say "lava-server up on $url: $version"

# the lab: a user and token for lavacli, the worker, the device type and the devices with gttlab's QEMU dictionary
manage users add --superuser --staff --passwd "$(head -c 12 /dev/urandom | base64)" gttlab-lab >/dev/null ||
	die "cannot add the lab's user"
token=$(manage tokens add --user gttlab-lab 2>/dev/null | tail -1)
[ -n "$token" ] || die "cannot make a token for gttlab-lab"
manage workers add gttlab-worker >/dev/null || die "cannot add the worker"
wtoken=$(manage shell -c "from lava_scheduler_app.models import Worker; print(Worker.objects.get(hostname='gttlab-worker').token)" 2>/dev/null | tail -1)
manage device-types add qemu >/dev/null || die "cannot add the qemu device type"
devs=()
for i in $(seq 1 "$ndev"); do
	d=$(printf "gttlab-qemu-%02d" "$i")
	devs+=("$d")
	manage devices add --device-type qemu --worker gttlab-worker "$d" >/dev/null || die "cannot add device $d"
	cp "$here/devices/gttlab-qemu.jinja2" "$work/devices/$d.jinja2"
done
lavacli identities add --uri "$url/RPC2" --username gttlab-lab --token "$token" gttlab-lab ||
	die "lavacli cannot keep the identity"
lc() { lavacli -i gttlab-lab "$@"; }
say "devices: $(manage devices list 2>/dev/null | grep -c 'gttlab-qemu-') of type qemu on worker gttlab-worker, each with lava/devices/gttlab-qemu.jinja2"

# the scheduler and the worker, in their own sessions (stopped as groups)
setsid lava-server manage lava-scheduler --level INFO --log-file "$work/scheduler.log" \
	> "$work/scheduler.out" 2>&1 < /dev/null &
pids+=($!) && echo $! > "$work/scheduler.pid"
# the worker learns of a scheduled job and reports a finished one when it pings the server: every 2 s
# here, not lava-worker's default 20 s, which a lab of three devices would spend mostly waiting
setsid lava-worker --level INFO --url "$url/" --token "$wtoken" --name gttlab-worker --log-file "$work/worker.log" \
	--ping-interval 2 --worker-dir "$work/dispatcher" > "$work/worker.out" 2>&1 < /dev/null &
pids+=($!) && echo $! > "$work/worker.pid"

# the health check of the qemu device type: LAVA runs it on each device before the device takes a job
# (a device starts with health Unknown); three checks on sim:skl, the monitor asking for a simulated
# device as the dictionary declares. A device whose health check fails goes Bad and runs nothing.
. "$here/esp.sh"
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$work/vars.fd"
make_esp "$work/esp-health.img" "$app" "--device sim:skl --debug-exit --run ggtt-pte-readback,fence-readback,aperture-rw" &&
	"$here/make-jobs.sh" "$work/jobs-health" "$app" "$work/esp-health.img" "$work/vars.fd" "gttlab health check" &&
	cp "$work/jobs-health/qemu.yaml" "$work/health-checks/qemu.yaml" || die "cannot make the qemu health check"

# the jobs: the qemu template rendered for each ESP, submitted at once
names=(skl hsw tgl skl-fault) ids=()
for j in "${names[@]}"; do
	cfg="--device sim:${j%-fault} --debug-exit" title="gttlab.efi on sim:${j%-fault}"
	a=$app
	[ "$j" = skl-fault ] && cfg+=" --fault drop-flush" title+=" with --fault drop-flush" a=$faulty
	make_esp "$work/esp-$j.img" "$a" "$cfg" || die "cannot make the ESP for $j"
	"$here/make-jobs.sh" "$work/jobs-$j" "$a" "$work/esp-$j.img" "$work/vars.fd" "$title" ||
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

# the health checks: one ran and completed on every device that took a job, and every device is Good
hc=$(manage shell -c "from lava_scheduler_app.models import TestJob
print(TestJob.objects.filter(health_check=True, health=TestJob.HEALTH_COMPLETE).values('actual_device').distinct().count(),
      TestJob.objects.filter(health_check=True).exclude(health=TestJob.HEALTH_COMPLETE).count())" 2>/dev/null | tail -1)
read -r hc_ok hc_bad <<<"$hc"
used=$(for id in "${ids[@]}"; do lc jobs show "$id" --yaml | sed -n 's/^device: //p'; done | sort -u | wc -l)
bad_devs=$(for d in "${devs[@]}"; do h=$(lc devices show "$d" --yaml | sed -n 's/^health: //p'); [ "$h" = Good ] || echo "$d:$h"; done)
if [ -z "${hc_ok:-}" ] || [ "$hc_ok" -lt "$used" ] || [ "${hc_bad:-1}" != 0 ] || [ -n "$bad_devs" ]; then
	die "health checks: ${hc_ok:-?} devices with a completed one for $used used, ${hc_bad:-?} not complete; not Good: ${bad_devs:-none}"
fi
say "health checks: one completed on each of the $hc_ok devices that took jobs, none failed; every device is Good"

# the gates, from the API: each job's health, log and results
rc=0
for k in "${!ids[@]}"; do
	id=${ids[$k]} j=${names[$k]}
	health=$(lc jobs show "$id" --yaml | sed -n 's/^health: //p')
	lc jobs logs --raw "$id" > "$work/job-$id.log" && lc results "$id" --yaml > "$work/job-$id.results" ||
		die "job $id: the API gave no log or results"
	# the dictionary of the device it ran on, as the API gives it: the kinds the gate holds the run to
	dev=$(lc jobs show "$id" --yaml | sed -n 's/^device: //p')
	lc devices dict get "$dev" > "$work/job-$id.dict.jinja2" || die "job $id: the API gave no dictionary for $dev"
	out=$("$here/gate.sh" --device-dict "$work/job-$id.dict.jinja2" --server "$work/job-$id.log" "$work/job-$id.results" "$health")
	grc=$?
	say "job $id ($j): $out"
	if [ "$j" = skl-fault ]; then
		if [ "$grc" = 0 ]; then
			say "job $id: the gate passed a run whose checks failed"; rc=1
		elif ! grep -q 'failing test cases: .*ggtt-invalidate' <<<"$out"; then
			say "job $id: the gate failed the faulty run without naming ggtt-invalidate"; rc=1
		elif ! grep -qE 'ggtt-invalidate: [^(]' <<<"$out"; then
			say "job $id: the gate named ggtt-invalidate without its reason"; rc=1
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
