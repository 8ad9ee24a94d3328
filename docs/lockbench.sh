#!/usr/bin/env bash
# lockbench.sh: ingests beside a stream of queries, and an ingest beside an
# idle REPL (issue 19). Run from the repository root:
#
#	bash docs/lockbench.sh [SECONDS] [LOOPS] [INGESTS] [serve]
#
# With "serve" the store is owned by `medkb serve` for the query loops and
# ingests, which then all go through its socket.
#
# It builds medkb, makes a store from testdata (the sample corpus and
# graph), runs LOOPS (8) bash loops of `medkb query` for SECONDS (40) and,
# meanwhile, INGESTS (4) ingests of a small JSON Lines file one after
# another; it prints each ingest's wall time and the count of queries that
# ran and failed. Then it starts `medkb repl` on the store, runs one query
# in it and leaves it idle, and times an ingest beside it (the REPL lets
# the store go while a writer waits); and it stalls a reader (`medkb
# export` into a pipe nobody reads) and prints what an ingest says beside
# it (it must name the reader's pid and program).
set -u
secs=${1:-40} loops=${2:-8} ingests=${3:-4} mode=${4:-}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
bin=$work/medkb kb=$work/kb
go build -o "$bin" ./cmd/medkb || exit 1
"$bin" ingest --db "$kb" testdata/corpus/docs.jsonl testdata/graph/entities.jsonl testdata/graph/kg.jsonl >/dev/null || exit 1
for i in $(seq 1 3000); do # a store whose export fills a pipe
	printf '{"id":"bulk-%d","text":"Bulk note %d: blood pressure %d/80 mmHg, pulse %d per minute, no new findings."}\n' "$i" "$i" $((100 + i % 60)) $((50 + i % 40))
done >"$work/bulk.jsonl"
"$bin" ingest --db "$kb" "$work/bulk.jsonl" >/dev/null || exit 1
for i in $(seq 1 50); do
	printf '{"id":"lb-%d","text":"Note %d: chest pain radiating to the left arm, troponin %d.%d ng/mL, creatinine %d umol/L."}\n' "$i" "$i" $((i % 9)) $((i % 10)) $((60 + i))
done >"$work/small.jsonl"

if [ "$mode" = serve ]; then
	"$bin" serve --db "$kb" 2>"$work/serve.err" &
	server=$!
	for _ in $(seq 1 100); do [ -S "$kb/medkb.sock" ] && break; sleep 0.1; done
fi

query='RETRIEVE "chest pain, troponin" FUSE rrf PACK budget 256 kmin 1'
stop=$work/stop
for l in $(seq 1 "$loops"); do
	(
		ok=0 bad=0
		while [ ! -e "$stop" ]; do
			if "$bin" query --db "$kb" "$query" >/dev/null 2>>"$work/qerr.$l"; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
		done
		echo "$ok $bad" >"$work/q.$l"
	) &
	pids="${pids:-} $!"
done
start=$(date +%s.%N)
sleep 2 # let the loops get going
for i in $(seq 1 "$ingests"); do
	t0=$(date +%s.%N)
	if "$bin" ingest --db "$kb" "$work/small.jsonl" >/dev/null 2>"$work/ierr.$i"; then st=ok; else st="FAILED: $(head -c 300 "$work/ierr.$i")"; fi
	printf 'ingest %d: %.2f s %s\n' "$i" "$(echo "$(date +%s.%N) - $t0" | bc)" "$st"
done
rest=$(echo "$secs - ($(date +%s.%N) - $start)" | bc)
[ "${rest%%.*}" -gt 0 ] 2>/dev/null && sleep "$rest"
touch "$stop"
wait $pids # not the server, which runs on
ok=0 bad=0
for l in $(seq 1 "$loops"); do read -r o b <"$work/q.$l"; ok=$((ok + o)) bad=$((bad + b)); done
echo "queries: $((ok + bad)) in ${secs} s over $loops loops, $bad failed"
[ "$bad" -gt 0 ] && sort "$work"/qerr.* | uniq -c | head -5
if [ "$mode" = serve ]; then
	kill "$server" && wait "$server" 2>/dev/null
fi

# An idle REPL that has queried holds the store read-only.
mkfifo "$work/in" "$work/out"
"$bin" repl --db "$kb" <"$work/in" >"$work/repl.out" 2>&1 &
repl=$!
exec 3>"$work/in"
echo 'RETRIEVE "troponin" LIMIT 3;' >&3
sleep 1
t0=$(date +%s.%N)
if "$bin" ingest --db "$kb" "$work/small.jsonl" >/dev/null 2>"$work/ierr.repl"; then st=ok; else st="FAILED: $(cat "$work/ierr.repl")"; fi
printf 'ingest beside an idle REPL (pid %d): %.2f s %s\n' "$repl" "$(echo "$(date +%s.%N) - $t0" | bc)" "$st"
echo 'RETRIEVE "troponin" LIMIT 3;' >&3
exec 3>&-
wait "$repl" || echo "the REPL failed: $(cat "$work/repl.out")"

# A reader that does not let go: an export stalled on a full pipe.
"$bin" export --db "$kb" >"$work/out" &
export=$!
exec 4<"$work/out" # opened, never read
sleep 1
t0=$(date +%s.%N)
"$bin" ingest --db "$kb" --lock-timeout 2s "$work/small.jsonl" 2>&1 | sed "s/^/ingest beside a stalled export (pid $export) says: /"
printf '  after %.2f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
exec 4<&-
wait "$export" 2>/dev/null
