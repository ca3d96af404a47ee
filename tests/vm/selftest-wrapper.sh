#!/bin/sh
# Runs one kselftest invocation (@BIN@ @ARGS@).  Some futex selftests use
# fixed sleeps and timeouts (futex_requeue: 10 ms head start, 30 ms waiter
# timeout) that a KASAN kernel under software emulation can overrun; a
# failed run is shown as comments and repeated once, and only the second
# run's results count, so two failures in a row still fail.
out=$(@BIN@ @ARGS@ 2>&1)
rc=$?
if [ $rc != 0 ]; then
	echo "$out" | sed 's/^/# first run: /'
	echo "# first run failed (status $rc); running it once more"
	exec @BIN@ @ARGS@
fi
echo "$out"
