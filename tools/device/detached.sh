#!/usr/bin/env bash
# Work longer than one device call (10 min): start a script in its own process session, which the machine keeps
# running between calls while it stays warm, then wait for it across calls.
#
#   bash tools/device/detached.sh start NAME SCRIPT [ARGS...]   # starts it, then waits as `wait` does
#   bash tools/device/detached.sh wait NAME                     # waits up to DETACH_WAIT s (default 560)
#
# The script's $OUT is /tmp/detached/NAME/out; when it has ended, its files are copied to this call's $OUT and
# its exit status is this call's. While it still runs, this call brings back its log so far and exits 75: make
# the next call at once (a machine left idle for 30 s is given back, and the work with it).
set -uo pipefail
action=$1 name=$2
shift 2
dir=/tmp/detached/$name
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"

case $action in
  start)
    [ -e "$dir" ] && { echo "detached: $name was started before on this machine ($dir)"; exit 2; }
    mkdir -p "$dir/out"
    # setsid: a process in a new session outlives the call that started it (device README)
    OUT="$dir/out" setsid bash -c '"$@" > "$0/log" 2>&1; echo $? > "$0/rc"' "$dir" "$@" < /dev/null &
    echo "detached: started $name: $*";;
  wait)
    [ -d "$dir" ] || { echo "detached: nothing named $name on this machine (a fresh machine?)"; exit 2; };;
  *)
    echo "usage: detached.sh start NAME SCRIPT [ARGS...] | wait NAME"; exit 2;;
esac

deadline=$(( $(date +%s) + ${DETACH_WAIT:-560} ))
while [ ! -e "$dir/rc" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 5; done
cp "$dir/log" "$OUT/detached.log" 2>/dev/null
if [ ! -e "$dir/rc" ]; then
  echo "detached: $name still running; make the next call now:  bash tools/device/detached.sh wait $name"
  tail -5 "$dir/log"
  exit 75
fi
cp -r "$dir/out/." "$OUT/"
rc=$(cat "$dir/rc")
echo "detached: $name ended with exit $rc"
tail -60 "$dir/log"
exit "$rc"
