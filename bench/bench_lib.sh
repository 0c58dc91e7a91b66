# Shared by the bench/run_*.sh scripts (sourced): best-of-3 timing.
# measure CMD...: runs it 3 times, prints "seconds peak_kB" of the fastest run.
# Needs $DIR (a scratch directory) set by the caller.
measure() {
  local best="" mem=0 s m
  for _ in 1 2 3; do
    /usr/bin/time -o "$DIR/time.txt" -f "%e %M" "$@" > /dev/null 2> /dev/null || true
    read -r s m < <(tail -1 "$DIR/time.txt")
    if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; mem=$m; fi
  done
  echo "$best $mem"
}
