#!/usr/bin/env bash
# ctest bench_amqp_smoke: the wire benchmark's load client works against `hourglass serve` (a few
# hundred messages each way, and round trips), so `make bench-amqp` cannot rot unnoticed.
# Usage: amqp-smoke.sh HOURGLASS AMQP_LOAD ADMIN_LOAD (the administration API's load client, on
# both ports)
set -euo pipefail
hourglass="$1"
load="$2"
admin_load="$3"
work="$(mktemp -d)"
serve_pid=""
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
cat > "$work/config.json" <<'JSON'
{ "UserConfig": { "Namespaces": [ { "Name": "sbemulatorns", "Queues": [ { "Name": "bench" } ], "Topics": [] } ], "Logging": { "Type": "File" } } }
JSON
"$hourglass" serve --port 0 --db "$work/hg.db" --config "$work/config.json" \
  --tls-port 0 --tls-dir "$work/tls" > "$work/out" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do grep -q "^Connection string:" "$work/out" && break; sleep 0.1; done
port=$(sed -n 's/.*AMQP endpoint listening on [^:]*:\([0-9]*\).*/\1/p' "$work/out")
tls_port=$(sed -n 's/.*TLS endpoint listening on [^:]*:\([0-9]*\).*/\1/p' "$work/out")
[ -n "$port" ] || { echo "FAIL: hourglass serve did not start"; cat "$work/out"; exit 1; }
args=(--port "$port" --address bench --sas-key SAS_KEY_VALUE)
send=$("$load" "${args[@]}" --mode send --messages 300 --durable)
receive=$("$load" "${args[@]}" --mode receive --messages 300)
roundtrip=$("$load" "${args[@]}" --mode roundtrip --messages 50 --durable)
held=$("$load" "${args[@]}" --mode hold --connections 20 --seconds 1 --durable)
echo "$send"; echo "$receive"; echo "$roundtrip"; echo "$held"
[[ $held =~ ^hold\ 20\ connections\ 20\ up\ [1-9][0-9]*\ accepted ]] ||
  { echo "FAIL: hold printed '$held'"; exit 1; }
[[ $send =~ ^send\ [0-9]+\ msg/s$ ]] || { echo "FAIL: send printed '$send'"; exit 1; }
[[ $receive =~ ^receive\ [0-9]+\ msg/s$ ]] || { echo "FAIL: receive printed '$receive'"; exit 1; }
[[ $roundtrip =~ ^roundtrip\ p50\ [0-9.]+\ ms\ p99\ [0-9.]+\ ms$ ]] ||
  { echo "FAIL: roundtrip printed '$roundtrip'"; exit 1; }
# A wrong key is refused before anything is measured.
if "$load" --port "$port" --address bench --sas-key wrong --mode send --messages 1 2>"$work/err"; then
  echo "FAIL: a wrong key was accepted"; exit 1
fi
grep -q "put-token answered 401" "$work/err" || { echo "FAIL: $(cat "$work/err")"; exit 1; }
# The same load client over the TLS port, trusting the authority serve made.
tls_args=(--port "$tls_port" --address bench --sas-key SAS_KEY_VALUE --tls "$work/tls/ca-cert.pem")
tls_send=$("$load" "${tls_args[@]}" --mode send --messages 300 --durable)
tls_receive=$("$load" "${tls_args[@]}" --mode receive --messages 300)
echo "over TLS: $tls_send; $tls_receive"
[[ "$tls_send" =~ ^send\ [0-9]+\ msg/s$ ]] || { echo "FAIL: TLS send printed '$tls_send'"; exit 1; }
[[ "$tls_receive" =~ ^receive\ [0-9]+\ msg/s$ ]] || { echo "FAIL: TLS receive printed '$tls_receive'"; exit 1; }
# The administration API's load client on both ports.
for port_args in "--port $tls_port --tls $work/tls/ca-cert.pem" "--port $port"; do
  # shellcheck disable=SC2086 # the words are the options
  gets=$("$admin_load" $port_args --connections 10 --rounds 1) || { echo "FAIL: admin_load $port_args"; exit 1; }
  echo "$gets"
  [[ "$gets" =~ ^gets\ 10\ x\ 1:\ p50\ [0-9.]+\ ms\ p99\ [0-9.]+\ ms ]] || { echo "FAIL: admin_load printed '$gets'"; exit 1; }
done
echo "PASS"
