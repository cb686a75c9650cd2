#!/usr/bin/env bash
# Regenerate every .screen from its .in with the reference program, which is
# not part of this project: it lives in ../shared/reference beside the
# checkout. Read the diff before committing a changed screen.
set -euo pipefail
cd "$(dirname "$0")"
ref=${REFERENCE:-../../../shared/reference}
for in in *.in; do
  python3 "$ref/run.py" < "$in" > "${in%.in}.screen"
done
