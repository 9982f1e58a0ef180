#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/hostile-neighbour.sh BUILD: the VM boundary against a hostile guest (docs/transport.md, "What it
# guarantees"). One `gttlab dom0 serve` with two guest slots; a victim guest runs the guest suite over pv: in
# slot 1 while BUILD/tests/pv_attack (an ivshmem client written from the transport's documentation) attacks
# from slot 2, one attack at a time:
#   truncate     the shared memory shrunk and grown: refused (sealed), serve answers on
#   retain       a guest hangs up keeping its fd and mapping, the next guest of its slot runs the suite while
#                it watches and scribbles: nothing of the next guest shows, nothing it writes reaches it
#   residue      the next connection's mailbox and memory read as a fresh serve's: zeros
#   audit, ptes, socket, doorbell   floods beside the victim
#   busy         a second connection to the victim's slot: refused
#   silent       a guest that never asks: dropped after --setup-timeout, its slot free again
#   forge        a stamp naming another vGPU with a made-up tag: counted forged, no leak
# It passes only if the victim passes every time, serve survives all of it and ends with exit 0, no leak and
# the forgery counted. Then who may connect: the directory and sockets serve makes are 0700 and 0600 whatever
# the umask, another user cannot connect, a directory others can write is refused; and the guest side: a
# socket that accepts and never answers is a device error naming it within timeout=MS.
set -uo pipefail
build=${1:?usage: tests/vm/hostile-neighbour.sh BUILD}
gttlab=$build/gttlab attack=$build/tests/pv_attack
for f in "$gttlab" "$attack"; do [ -x "$f" ] || { echo "hostile-neighbour: $f is not built"; exit 2; }; done
work=$(mktemp -d /tmp/gttlab-hostile-XXXXXX)
chmod 0755 "$work"	# only what serve makes decides who may connect
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail=0
bad() { echo "hostile-neighbour: $*"; fail=1; }

# serve, and its readiness: the line it prints once slot 2 listens (not the socket file's existence)
umask 000
"$gttlab" --device sim:skl dom0 serve --dir "$work/s" --guests 2 --setup-timeout 2000 > "$work/serve.log" 2>&1 &
serve_pid=$!
umask 022
for _ in $(seq 200); do grep -q 'guest 2: listening on' "$work/serve.log" && break; sleep 0.05; done
grep -q 'guest 2: listening on' "$work/serve.log" || { cat "$work/serve.log"; echo "hostile-neighbour: serve did not listen"; exit 1; }
s1=$work/s/vgpu1.sock s2=$work/s/vgpu2.sock

# who may connect: decided by serve, not the umask 000 it ran under
[ "$(stat -c %a "$work/s")" = 700 ] || bad "the socket directory is mode $(stat -c %a "$work/s") under umask 000, not 700"
[ "$(stat -c %a "$s1")" = 600 ] || bad "the socket is mode $(stat -c %a "$s1") under umask 000, not 600"
if id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	if out=$(runuser -u nobody -- "$attack" "$s1" busy 2>&1); then bad "another user connected: $out"; fi
	echo "hostile-neighbour: under umask 000 the directory is 0700 and the sockets 0600; user nobody cannot connect"
fi

victim() {	# victim SLOT LABEL: the guest suite over pv: must pass
	local out rc
	out=$("$gttlab" check --device "pv:$1" --run guest 2>&1); rc=$?
	grep -q '^PASS' <<<"$out" && [ $rc = 0 ] || { bad "the victim failed beside $2 (exit $rc): $(grep -E 'FAIL|fail|abort|error' <<<"$out" | head -3 | tr '\n' ' ')"; return 1; }
}
alive() { kill -0 "$serve_pid" 2>/dev/null || { bad "serve died during $1: $(tail -3 "$work/serve.log" | tr '\n' ' ')"; return 1; }; }

# truncate beside the victim
"$attack" "$s2" truncate > "$work/a.log" 2>&1 || bad "truncate: $(cat "$work/a.log")"
victim "$s1" truncate; alive truncate
echo "hostile-neighbour: truncate: $(cat "$work/a.log")"

# retain: slot 2's guest hangs up keeping its mapping; the next guest of slot 2 runs the suite
"$attack" "$s2" retain 4000 > "$work/r.log" 2>&1 & rp=$!
sleep 0.5
victim "$s2" "a departed guest that kept its mapping"
wait $rp || bad "retain: $(cat "$work/r.log")"
alive retain
echo "hostile-neighbour: retain: $(cat "$work/r.log")"

# residue: what the victim left in slot 2 is not in the next connection's memory
"$attack" "$s2" residue > "$work/a.log" 2>&1 || bad "residue: $(cat "$work/a.log")"
echo "hostile-neighbour: residue: $(cat "$work/a.log")"

# floods beside the victim, and a second connection to its slot meanwhile
for m in audit ptes socket doorbell; do
	"$attack" "$s2" "$m" 3000 > "$work/f.log" 2>&1 & fp=$!
	sleep 0.2
	victim "$s1" "a $m flood"
	wait $fp || bad "$m flood: $(cat "$work/f.log")"
	alive "the $m flood"
	echo "hostile-neighbour: $m flood beside a passing victim: $(cat "$work/f.log")"
done

# busy: a second connection to a slot that holds a guest
"$attack" "$s1" burn 1500 > /dev/null 2>&1 & hp=$!
sleep 0.3
"$attack" "$s1" busy > "$work/a.log" 2>&1 || bad "busy: $(cat "$work/a.log")"
wait $hp
echo "hostile-neighbour: busy: $(cat "$work/a.log")"

# silent: dropped within the setup timeout, its slot free again
"$attack" "$s2" silent > "$work/a.log" 2>&1 || bad "silent: $(cat "$work/a.log")"
echo "hostile-neighbour: silent: $(cat "$work/a.log")"
sleep 0.2	# the slot takes no connection for 100 ms after a drop
victim "$s2" "the slot a silent guest held"

# forge: not a leak
"$attack" "$s2" forge > "$work/a.log" 2>&1 || bad "forge: $(cat "$work/a.log")"

kill -TERM "$serve_pid"; wait "$serve_pid"; src=$?; serve_pid=
summary=$(tail -1 "$work/serve.log")
[ $src = 0 ] || bad "serve ended with exit $src: $summary"
grep -q 'LEAK' "$work/serve.log" && bad "serve reported a leak: $(grep LEAK "$work/serve.log" | head -2)"
grep -qE ", 0 another's, [2-9][0-9]* forged" <<<"$summary" || bad "the forged stamp was not counted as forged, or a leak was: $summary"
grep -qE 'connections refused' <<<"$summary" && grep -qE '[1-9][0-9]* connections refused' <<<"$summary" || bad "no connection was refused: $summary"
echo "hostile-neighbour: serve: $summary"

# a directory others can write is refused, one line, exit 2
mkdir -m 0777 "$work/open"
out=$("$gttlab" dom0 serve --dir "$work/open" --guests 1 2>&1); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'writable by others' <<<"$out" ||
	bad "serve took a world-writable directory (exit $rc): $out"

# the guest side: a socket that accepts and never answers is a device error within its timeout
python3 - "$work/mute.sock" <<'EOF' & mp=$!
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(sys.argv[1]); s.listen(4)
c = [s.accept() for _ in range(1)]
time.sleep(30)
EOF
for _ in $(seq 100); do [ -S "$work/mute.sock" ] && break; sleep 0.05; done
t0=$(date +%s%N)
out=$(timeout 20 "$gttlab" check --device "pv:$work/mute.sock,timeout=500" --run guest 2>&1); rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill $mp 2>/dev/null; wait $mp 2>/dev/null
{ [ $rc = 2 ] && [ $ms -lt 5000 ] && grep -q "mute.sock" <<<"$out"; } ||
	bad "a server that never answers: exit $rc after $ms ms: $out"
echo "hostile-neighbour: a server that accepts and never answers: exit $rc after $ms ms: $(grep -o 'pv:[^ ]*: .*' <<<"$out" | head -1)"

[ $fail = 0 ] && echo "hostile-neighbour: serve survived every attack, the victim passed beside each, no guest saw another's bytes"
exit $fail
