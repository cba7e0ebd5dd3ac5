#!/usr/bin/env bash
# README's test command: install the project with its test extra, lint, run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'
python3 -m ruff check .
python3 -m pytest
