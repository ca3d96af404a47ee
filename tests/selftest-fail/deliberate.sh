#!/bin/sh
# Harness self-test: one passing and one failing result.
echo "ok 1 - a result that passes"
echo "not ok 2 - deliberate failure"
echo "1..2"
exit 1
