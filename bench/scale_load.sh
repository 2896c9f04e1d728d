#!/bin/bash
# The load as the data grows (issue 18.8): one fresh dynotable-local per binary given, in file or
# memory mode, loaded with 10,000, then 100,000, then 1,000,000 items (three tables of the
# workload's shape, BatchWriteItem of 25, `dynobench --attach … --phase load` at concurrency C);
# prints items/s of each step, RSS after, and the load average before and after. Usage:
#   DRIVER=/tmp/target-bench/release/dynobench bench/scale_load.sh C memory|file BINARY...
# (the driver is built by bench/run.sh). Run it under `flock /tmp/bench.lock` on a shared machine.
D=${DRIVER:-/tmp/target-bench/release/dynobench}
C=$1; MODE=$2; shift 2
port=18400
echo "| build | mode | concurrency | load average before | 10,000 items | 100,000 items | 1,000,000 items | RSS after | load average after |"
echo "|---|---|---|---|---:|---:|---:|---:|---|"
for bin in "$@"; do
  port=$((port+1))
  dir=$(mktemp -d /tmp/scale-load.XXXX)
  if [ "$MODE" = memory ]; then args=(--in-memory); else args=(--db "$dir/bench.db"); fi
  "$bin" --port $port "${args[@]}" >/dev/null 2>&1 & pid=$!
  sleep 0.5
  line="| $bin | $MODE | c=$C | $(uptime | sed 's/.*load average: //')"
  for v in 100 1000 10000; do
    t=T$((v*100))
    "$D" --attach $pid:$port --phase create --table $t >/dev/null
    r=$("$D" --attach $pid:$port --phase load --table $t --vehicles $v --concurrency "$C" |
      python3 -c 'import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print("{:,.0f}".format(d["items_per_s"]))')
    line="$line | $r"
  done
  rss=$(ps -o rss= -p $pid); line="$line | $((rss/1024)) MB | $(uptime | sed 's/.*load average: //') |"
  kill $pid; wait $pid 2>/dev/null; rm -rf "$dir"
  echo "$line"
done
