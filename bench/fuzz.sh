#!/bin/bash
# bench/fuzz.sh [TARGET...]: the long fuzz runs of bench/README.md
# ("Fuzzing"): each target of tests/fuzz/ alone, at nice 19, until
# FUZZ_RUNS executions (default 10 million) or FUZZ_SECONDS (default
# 3600) have passed, whichever comes first; one line per target
# (executions, exec/s, edges, corpus, crashes, seconds).  The corpus
# is kept in FUZZ_WORK (default tests/out/fuzz-bench), so a second run
# goes on from the first.
set -eu -o pipefail
cd "$(dirname "$0")/.."
make -s fuzz-build probecc bootconfig/probecc-bootconfig
export FUZZ_RUNS=${FUZZ_RUNS:-10000000}
export FUZZ_SECONDS=${FUZZ_SECONDS:-3600}
export FUZZ_NICE=${FUZZ_NICE:-19}
export FUZZ_WORK=${FUZZ_WORK:-tests/out/fuzz-bench}
echo "bench/fuzz.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
exec tests/fuzz/run.sh "$@"
