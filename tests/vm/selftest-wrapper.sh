#!/bin/sh
# Runs one invocation of the kernel tree's futex selftests, as run.sh does.
exec @BIN@ @ARGS@
