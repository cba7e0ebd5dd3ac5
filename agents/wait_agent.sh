#!/bin/sh
# The smallest agent: POSIX shell only. Says hello, then waits two seconds every turn
# until the summary arrives. Shows that any executable speaking JSON lines works.
read -r start
printf '%s\n' '{"type":"hello","protocol_version":1,"name":"wait-agent","version":"1","description":"Waits every turn (POSIX shell)."}'
while read -r line; do
    case "$line" in
        *'"type":"summary"'*) exit 0 ;;
    esac
    printf '%s\n' '{"type":"action","protocol_version":1,"action":"wait","arguments":{"seconds":2},"notes":"waiting"}'
done
