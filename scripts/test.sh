#!/usr/bin/env bash
# README's test command: install the project with its test extra, lint, type-check, run the tests.
#
# Two system programs make some tests possible: Chromium (the run-page browser test drives
# the system's Chromium, never a downloaded one) and bubblewrap (the agent sandbox and the
# hostile-agent tests). Where they are missing and this runs as root with apt-get, it
# installs them and says so; elsewhere it says what is missing, and the tests that need it
# are skipped with a line saying how to enable them. Nothing is installed silently.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'

apt_updated=""
# system_program COMMAND PACKAGE WHAT: make COMMAND available if this can, else say why not.
system_program() {
    local command=$1 package=$2 what=$3
    command -v "$command" >/dev/null && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "scripts/test.sh: installing the system package '$package' with apt-get ($what)"
        if [ -z "$apt_updated" ]; then
            apt-get update -qq && apt_updated=yes || true
        fi
        if apt-get install -y -qq "$package" >/dev/null; then
            return 0
        fi
        echo "scripts/test.sh: apt-get could not install '$package'; $what will be skipped"
    else
        echo "scripts/test.sh: '$command' is missing and this is not root with apt-get, so" \
             "$what will be skipped; to enable it, install the system package '$package'" \
             "(Debian: sudo apt-get install $package)"
    fi
}
system_program chromium chromium "the run-page browser test"
system_program bwrap bubblewrap "the agent-sandbox tests"

# Compiled modules are cached even where the machine sets PYTHONDONTWRITEBYTECODE: the tests
# start hundreds of Python processes (harness commands, agents), and each would otherwise
# compile the project again (about 0.3 s of processor time a process).
unset PYTHONDONTWRITEBYTECODE

python3 -m ruff check .
# All of world/ and harness/; strict where pyproject.toml's [tool.mypy] says.
python3 -m mypy
# -rs: each skipped test is listed with its reason (and how to enable it). -n 2: two
# pytest-xdist workers; loadgroup keeps the tests of one xdist_group (the Ray tests, which
# each start a local Ray instance) on one worker.
python3 -m pytest -rs -n 2 --dist loadgroup
