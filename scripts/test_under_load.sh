#!/usr/bin/env bash
# README's test command with a CPU-bound neighbour process on every core, as a busy CI machine
# runs it: tests must wait on state, never on fixed spans. Exits with pytest's status.
set -uo pipefail
cd "$(dirname "$0")/.."
cores=$(python3 -c "import os; print(os.cpu_count() or 1)")
busy=()
for _ in $(seq "$cores"); do
  timeout 7200 python3 -c "while True: pass" &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
python3 -m pytest -q -n 2 "$@"
