#!/usr/bin/env bash
# A compiler and linker launcher that logs what each compile and link costs: with UA_BUILD_TIMES=FILE
# in the environment, scripts/deps.sh configures the builds with it, and every compile or link
# appends "<wall seconds> <user+sys CPU seconds> <output file>" to FILE (docs/Reliability.md "CI").
#   sort -rn FILE | head        the most expensive units
set -u
out=?
prev=
for arg in "$@"; do
    [[ $prev == -o ]] && out=$arg
    prev=$arg
done
TIMEFORMAT='%R %U %S'
rcfile=$(mktemp)
{ t=$( { time { "$@" 1>&3 2>&4; echo $? >"$rcfile"; }; } 2>&1 ); } 3>&1 4>&2
rc=$(<"$rcfile")
rm -f "$rcfile"
read -r wall user sys <<<"$(tail -n1 <<<"$t")"
printf '%s %s %s\n' "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')" "$PWD/$out" >>"${UA_BUILD_TIMES:-/dev/null}"
exit "$rc"
