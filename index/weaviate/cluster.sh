#!/usr/bin/env bash
# cluster.sh: the pinned Weaviate server, built once, run as a local
# 3-node cluster on 127.0.0.1 for medkb's Weaviate backend (see doc.go and
# docs/weaviate.md).
#
#   cluster.sh build                  build the server into the cache unless it is there
#   cluster.sh start  DIR             start 3 nodes, data and logs under DIR; wait until ready
#   cluster.sh stop   DIR             stop them (SIGTERM, then SIGKILL after 20 s)
#   cluster.sh status DIR             one line per node: pid, ports, ready or not
#   cluster.sh nodes                  the --weaviate value naming the 3 nodes
#   cluster.sh kill   DIR N           kill -9 node N (0-2), as a crash would
#   cluster.sh start-node DIR N       start node N again (after kill)
#
# The server is `go install github.com/weaviate/weaviate/cmd/weaviate-server@v1.39.3`
# (v1.39.4 and later need a module the Go proxy refuses). A cold build takes
# 8-20 minutes and about 2 GB of module cache on a 2-core machine; a warm one
# about 25 s. The binary (150-190 MB) lands in $WEAVIATE_CACHE (default
# ~/.cache/medkb/weaviate-v1.39.3); $WEAVIATE_SERVER names another binary.
#
# Ports (node N = 0, 1, 2): REST 8180+N, gRPC 50151+N, gossip 7300+2N,
# data 7301+2N, Raft 8400+2N and 8401+2N; $WEAVIATE_PORT_OFFSET shifts
# them all. Each node runs with GOMAXPROCS=1, LIMIT_RESOURCES=true and
# GOMEMLIMIT=1GiB (override with $WEAVIATE_GOMEMLIMIT), telemetry and
# profiling off, anonymous access on: a cluster for one machine's tests,
# not for production.
set -euo pipefail

VERSION=v1.39.3
CACHE=${WEAVIATE_CACHE:-$HOME/.cache/medkb/weaviate-$VERSION}
SERVER=${WEAVIATE_SERVER:-$CACHE/weaviate-server}
OFF=${WEAVIATE_PORT_OFFSET:-0}
N=3

rest() { echo $((8180 + OFF + $1)); }
grpc() { echo $((50151 + OFF + $1)); }
gossip() { echo $((7300 + OFF + 2 * $1)); }
raft() { echo $((8400 + OFF + 2 * $1)); }

die() { echo "cluster.sh: $*" >&2; exit 1; }

build() {
  if [ -x "$SERVER" ]; then
    echo "$SERVER"
    return
  fi
  echo "cluster.sh: building weaviate-server $VERSION into $CACHE (cold: 8-20 min)" >&2
  mkdir -p "$CACHE"
  GOBIN="$CACHE" GOFLAGS=-buildvcs=false go install "github.com/weaviate/weaviate/cmd/weaviate-server@$VERSION"
  echo "$SERVER"
}

nodes() {
  local out=""
  for i in $(seq 0 $((N - 1))); do
    out="$out${out:+,}http://127.0.0.1:$(rest "$i")?grpc=$(grpc "$i")"
  done
  echo "$out"
}

ready() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$(rest "$1")/v1/.well-known/ready" 2>/dev/null; }

start_node() {
  local dir=$1 i=$2 join="" raftjoin=""
  [ -x "$SERVER" ] || die "no server at $SERVER: run '$0 build' (or set WEAVIATE_SERVER)"
  mkdir -p "$dir/node$i"
  if [ -f "$dir/node$i.pid" ] && kill -0 "$(cat "$dir/node$i.pid")" 2>/dev/null; then
    return
  fi
  for j in $(seq 0 $((N - 1))); do
    raftjoin="$raftjoin${raftjoin:+,}node$j:$(raft "$j")"
  done
  [ "$i" = 0 ] || join="127.0.0.1:$(gossip 0)"
  env -i PATH="$PATH" HOME="$HOME" \
    GOMAXPROCS=1 GOMEMLIMIT="${WEAVIATE_GOMEMLIMIT:-1GiB}" LIMIT_RESOURCES=true \
    DISABLE_TELEMETRY=true GO_PROFILING_DISABLE=true PROMETHEUS_MONITORING_ENABLED=false \
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true DEFAULT_VECTORIZER_MODULE=none ENABLE_MODULES= AUTOSCHEMA_ENABLED=false \
    PERSISTENCE_DATA_PATH="$dir/node$i" \
    CLUSTER_HOSTNAME="node$i" CLUSTER_IN_LOCALHOST=true CLUSTER_BIND_ADDR=127.0.0.1 \
    CLUSTER_GOSSIP_BIND_PORT="$(gossip "$i")" CLUSTER_DATA_BIND_PORT="$(($(gossip "$i") + 1))" \
    ${join:+CLUSTER_JOIN="$join"} \
    RAFT_PORT="$(raft "$i")" RAFT_INTERNAL_RPC_PORT="$(($(raft "$i") + 1))" \
    RAFT_JOIN="$raftjoin" RAFT_BOOTSTRAP_EXPECT=$N \
    GRPC_PORT="$(grpc "$i")" \
    setsid "$SERVER" --scheme http --host 127.0.0.1 --port "$(rest "$i")" \
    >"$dir/node$i.log" 2>&1 </dev/null &
  echo $! >"$dir/node$i.pid"
}

wait_ready() {
  local dir=$1
  shift
  for _ in $(seq 1 120); do
    local all=1
    for i in "$@"; do ready "$i" || all=0; done
    [ $all = 1 ] && return
    sleep 1
  done
  die "nodes $* not ready after 120 s; see $dir/node*.log"
}

stop() {
  local dir=$1
  for i in $(seq 0 $((N - 1))); do
    [ -f "$dir/node$i.pid" ] && kill "$(cat "$dir/node$i.pid")" 2>/dev/null || true
  done
  for _ in $(seq 1 20); do
    local alive=0
    for i in $(seq 0 $((N - 1))); do
      [ -f "$dir/node$i.pid" ] && kill -0 "$(cat "$dir/node$i.pid")" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 1
  done
  for i in $(seq 0 $((N - 1))); do
    [ -f "$dir/node$i.pid" ] && kill -9 "$(cat "$dir/node$i.pid")" 2>/dev/null || true
    rm -f "$dir/node$i.pid"
  done
}

status() {
  local dir=$1
  for i in $(seq 0 $((N - 1))); do
    local pid=- state=down
    [ -f "$dir/node$i.pid" ] && pid=$(cat "$dir/node$i.pid")
    [ "$pid" != - ] && kill -0 "$pid" 2>/dev/null && state=running
    [ $state = running ] && ready "$i" && state=ready
    echo "node$i pid $pid rest $(rest "$i") grpc $(grpc "$i") $state"
  done
}

cmd=${1:-}
case "$cmd" in
build) build ;;
nodes) nodes ;;
start)
  [ $# = 2 ] || die "usage: $0 start DIR"
  mkdir -p "$2"
  dir=$(cd "$2" && pwd)
  for i in $(seq 0 $((N - 1))); do start_node "$dir" "$i"; done
  wait_ready "$dir" $(seq 0 $((N - 1)))
  nodes
  ;;
stop)
  [ $# = 2 ] || die "usage: $0 stop DIR"
  stop "$(cd "$2" && pwd)"
  ;;
status)
  [ $# = 2 ] || die "usage: $0 status DIR"
  status "$(cd "$2" && pwd)"
  ;;
kill)
  [ $# = 3 ] || die "usage: $0 kill DIR N"
  kill -9 "$(cat "$2/node$3.pid")"
  ;;
start-node)
  [ $# = 3 ] || die "usage: $0 start-node DIR N"
  dir=$(cd "$2" && pwd)
  start_node "$dir" "$3"
  wait_ready "$dir" "$3"
  ;;
*) die "usage: $0 build | start DIR | stop DIR | status DIR | nodes | kill DIR N | start-node DIR N" ;;
esac
