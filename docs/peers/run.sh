#!/usr/bin/env bash
# Times medkb's exact scan, hnswlib-node's brute force and chromem-go's
# exhaustive query on the same vectors, in one run, and prints one table.
#
#   bash docs/peers/run.sh [N] [DIM] [QUERIES]     (defaults 100000 384 200)
#
# RUNS (default 3) times the four engines are run in turn, each time in a
# fresh process; ROUNDS (default 2) timed passes over the queries per engine
# and run, after one warm-up pass. The table gives the median over the runs,
# so that a burst of load from other work on the machine moves it less.
# PEERS_DATA (default /tmp/medkb-peers-N-DIM-QUERIES) holds the vector
# file, the ground truth and the Go binary; the vectors are seeded, so the
# same arguments give the same file.
set -euo pipefail
n=${1:-100000} dim=${2:-384} nq=${3:-200}
runs=${RUNS:-3} rounds=${ROUNDS:-2}
here=$(cd "$(dirname "$0")" && pwd)
data=${PEERS_DATA:-${TMPDIR:-/tmp}/medkb-peers-$n-$dim-$nq}
mkdir -p "$data"
cd "$here"

if [ ! -f node_modules/hnswlib-node/build/Release/addon.node ]; then
  npm ci --no-audit --no-fund >&2   # builds hnswlib-node's addon with node-gyp
fi
go build -o "$data/peers" .
if [ ! -f "$data/truth.bin" ]; then
  "$data/peers" gen -dir "$data" -n "$n" -dim "$dim" -queries "$nq"
fi

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
family=$(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
has() { grep -m1 '^flags' /proc/cpuinfo | grep -qw "$1" && echo yes || echo no; }
echo "machine: $cpu (cpu family $family), $(nproc) cores; AVX2 $(has avx2), FMA $(has fma), AVX-512 $(has avx512f)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(go version | cut -d' ' -f3), node $(node --version), hnswlib-node $(node -p "require('./node_modules/hnswlib-node/package.json').version")"
echo "data: $n x $dim unit vectors, $nq queries, top-10, $runs runs of $rounds rounds; recall against a float64 exact scan"
echo

results="$data/results.jsonl"
: > "$results"
for run in $(seq "$runs"); do
  echo "run $run of $runs" >&2
  "$data/peers" run -dir "$data" -engine medkb -rounds "$rounds" >> "$results"
  GOMAXPROCS=1 "$data/peers" run -dir "$data" -engine medkb -rounds "$rounds" >> "$results"
  "$data/peers" run -dir "$data" -engine medkb-int8 -rounds "$rounds" >> "$results"
  node peers.mjs "$data" "$rounds" >> "$results"
  "$data/peers" run -dir "$data" -engine chromem -rounds "$rounds" >> "$results"
done
"$data/peers" table -in "$results"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medkb ran twice: on all cores (default GOMAXPROCS) and on one (GOMAXPROCS=1);"
echo "hnswlib-node's BruteforceSearch runs on one thread; chromem-go uses one goroutine per CPU."
