#!/bin/sh
# A raw-control track agent in POSIX shell: walks forward, turning left now and then
# and firing at whatever the auto-aim finds, until the summary arrives. Shows that the
# raw track, like the macro one, takes any executable speaking JSON lines.
#   harness run exit_switch --track raw --agent agents/raw_walker.sh
read -r start
printf '%s\n' '{"type":"hello","protocol_version":1,"name":"raw-walker","version":"1","description":"Walks and turns (POSIX shell, raw track)."}'
n=0
while read -r line; do
    case "$line" in
        *'"type":"summary"'*) exit 0 ;;
    esac
    n=$((n + 1))
    turn=2
    if [ $((n % 8)) -eq 0 ]; then turn=4; fi
    printf '{"type":"action","protocol_version":1,"action":"controls","arguments":{"move":2,"strafe":1,"turn":%d,"fire":1,"use":1,"next_weapon":0}}\n' "$turn"
done
