#!/usr/bin/env bash
# Type-checks each program in Tests/CompileFailures against the debug build's modules and
# checks that the compiler rejects it with the message its first line names (or one of
# several, separated by " || ").
set -uo pipefail
cd "$(dirname "$0")/.."
modules=.build/debug/Modules
status=0

# Whether `output` contains one of the messages in `expected`, separated by " || " (the
# compiler words some rejections differently as overloads change).
matches_any() {
    local expected=$1 output=$2 message
    while [ -n "$expected" ]; do
        message=${expected%% || *}
        grep -qF -- "$message" <<<"$output" && return 0
        [ "$message" = "$expected" ] && return 1
        expected=${expected#* || }
    done
    return 1
}
for file in Tests/CompileFailures/*.swift; do
    expected=$(head -1 "$file" | sed -n 's|^// expect-error: ||p')
    if [ -z "$expected" ]; then
        echo "$file: first line must be '// expect-error: <message>'"
        status=1
        continue
    fi
    if output=$(swiftc -typecheck -swift-version 6 -I "$modules" "$file" 2>&1); then
        echo "$file: compiled, but must fail with: $expected"
        status=1
    elif ! matches_any "$expected" "$output"; then
        echo "$file: failed, but without: $expected"
        echo "$output" | grep -E "error:" | head -5
        status=1
    else
        echo "$file: rejected as expected"
    fi
done
exit $status
