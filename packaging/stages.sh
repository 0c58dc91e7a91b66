# Sourced by setup.sh, check.sh and .ci/run: wall time per stage, so every CI
# log ends with where its time went. A stage is one line "name seconds status"
# appended to $IRSCOPE_STAGE_LOG when it is set (.ci/run sets it and prints the
# table); without it the functions only keep the stage's start.
#   stage_begin NAME      note the start and print a header
#   stage_end STATUS      record NAME's wall time and STATUS (0 = ok)
#   stage_table FILE      print FILE's stages as a table, with their sum
stage_begin() {
  stage_name=$1
  stage_t0=$SECONDS
  echo "=== stage: $stage_name"
}

stage_end() {
  local status=$1 s=$((SECONDS - stage_t0))
  if [[ -n "${IRSCOPE_STAGE_LOG:-}" ]]; then
    printf '%s\t%d\t%s\n' "$stage_name" "$s" "$([[ $status == 0 ]] && echo ok || echo FAILED)" >>"$IRSCOPE_STAGE_LOG"
  fi
  return 0
}

stage_table() {
  [[ -s "$1" ]] || return 0
  awk -F'\t' '
    { printf "  %-28s %4dm%02ds  %s\n", $1, int($2 / 60), $2 % 60, $3; total += $2 }
    END { printf "  %-28s %4dm%02ds\n", "total (stages above)", int(total / 60), total % 60 }' "$1"
}
