# Device call 4 of the twelfth session (2026-12-07), on call 3's warm
# machine with the same build/gpu-q: the RUN lines of
# levels-smoothing.test, two of which call 3's time limit skipped (its
# log: 2026-12-07-loads-3-runlines.log). Output as the call printed it:
# 2026-12-07-loads-4-runlines.log.
scripts/gpu/run-lines.sh build/gpu-q/bin 200 test/Integration/GPU/levels-smoothing.test 2>&1 | tail -40
