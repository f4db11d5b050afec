#!/bin/sh
# Two MPI ranks on the CPU backend (issue #15): the sharded checks with one
# shard per rank and the misuse that must fail on every rank, then a rank
# that never arrives, which must make the other time out.  Skipped (77)
# without mpirun.
set -u
t=$1
command -v mpirun >/dev/null 2>&1 || { echo "skipped: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A container has no usable high-speed network: shared memory and TCP only.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
timeout 300 mpirun -n 2 --oversubscribe --output-filename "$out/main" "$t" cpu mpi \
  >"$out/main.log" 2>&1
rc=$?
cat "$out/main.log"; cat "$out"/main/1/rank.*/stdout "$out"/main/1/rank.*/stderr 2>/dev/null
if [ $rc -ne 0 ]; then echo "FAIL: mpirun -n 2 test_sharded cpu mpi exited $rc"; fail=1; fi
for r in 0 1; do
  f="$out/main/1/rank.$r/stdout"
  grep -q "test_sharded mpi: .* 0 failed" "$f" || { echo "FAIL: rank $r did not pass"; fail=1; }
  grep -q "rank $r: mismatched shapes: .*ranks disagree" "$f" || { echo "FAIL: rank $r: no mismatch error"; fail=1; }
  grep -q "rank $r: failed rank: .*rank 1 failed earlier" "$f" || { echo "FAIL: rank $r: no failed-rank error"; fail=1; }
  grep -q "rank $r: bad device: " "$f" || { echo "FAIL: rank $r: no bad-device error"; fail=1; }
done
start=$(date +%s)
timeout 120 mpirun -n 2 --oversubscribe --output-filename "$out/to" "$t" cpu mpi-timeout \
  >"$out/to.log" 2>&1
rc=$?
end=$(date +%s)
cat "$out/to.log"; cat "$out"/to/1/rank.*/stdout "$out"/to/1/rank.*/stderr 2>/dev/null
grep -q "rank 0: .*timed out after 2 s waiting for rank 1" "$out/to/1/rank.0/stdout" || { echo "FAIL: rank 0 did not time out"; fail=1; }
for r in 0 1; do
  grep -q "^done" "$out/to/1/rank.$r/stdout" || { echo "FAIL: rank $r did not finish"; fail=1; }
done
[ $((end - start)) -lt 60 ] || { echo "FAIL: the timeout run took $((end - start)) s"; fail=1; }
[ $fail -eq 0 ] && echo "multigpu_mpi: ok"
exit $fail
