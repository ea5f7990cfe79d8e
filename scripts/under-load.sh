#!/usr/bin/env bash
# `npm test`, the browser suite and `npm run bench`, RUNS times in a row (3 unless given), each beside two
# processes that burn a core each, so a test that waits on the machine's speed instead of on an event, or a
# bench row whose ratio depends on a quiet machine, fails here first (docs/performance.md#under-load).
#
#   scripts/under-load.sh [RUNS]        # REDIS_URL as for npm test; logs in $LOGS (a new temporary folder)
set -uo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-3}"
LOGS="${LOGS:-$(mktemp -d -t pagelight-under-load-XXXX)}"
# A folder named in LOGS is made if it is not there, rather than every step failing to write its log.
mkdir -p "$LOGS"
burners=()
stop_burners() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_burners EXIT

for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=("$!")
done
echo "two burners (${burners[*]}); logs in $LOGS"

failed=0
for run in $(seq 1 "$RUNS"); do
  for step in "npm test" "npm run test:e2e" "npm run bench"; do
    log="$LOGS/run$run-${step##* }.log"
    start=$(date +%s)
    if $step >"$log" 2>&1; then status=pass; else status=FAIL; failed=1; fi
    echo "run $run: $step: $status in $(($(date +%s) - start)) s ($log)"
  done
  # The bench's table: every row with a target, and its verdict.
  grep -E '(PASS|FAIL)' "$LOGS/run$run-bench.log" | sed "s/^/run $run: bench: /"
done
exit "$failed"
