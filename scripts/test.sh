#!/usr/bin/env bash
# npm test: typecheck, unit and integration tests (Vitest), then the built app in Chromium (Playwright),
# and the benchmark in smoke mode. The container test is not part of it (see the end).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the suite drives: Chromium (Playwright), LibreOffice and poppler (the Word file test),
# PostgreSQL's server (the integration tests' second run; tests/setup/postgres.ts starts its own), and
# nginx in front of three replicas there (tests/setup/nginx.ts).
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-writer-nogui)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian packages for the tests: ${missing[*]}..."
    apt-get update -qq
    # Without recommends: LibreOffice's would add Java and desktop integration the tests never use.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-liberation >/dev/null
  else
    echo "The tests need these Debian packages: run 'sudo apt-get install ${missing[*]}' (or set CHROMIUM_PATH)." >&2
    exit 1
  fi
fi

# Each step is timed, and the times are printed at the end: the README's table of durations comes from them.
timings=()
step() {
  local name=$1
  shift
  echo "== $name"
  local started=$SECONDS
  "$@"
  timings+=("$(printf '%5d s  %s' $((SECONDS - started)) "$name")")
}

# Each of the three is mostly one thread: on two cores they take half the time side by side. The Prisma
# clients and the route types they all read are made first, once, so none reads a file another writes.
side_by_side() {
  local name=$1 logs started=$SECONDS failed=0 pids=() labels=()
  shift
  echo "== $name"
  logs=$(mktemp -d)
  for job in "$@"; do
    labels+=("${job%%=*}")
    bash -c "${job#*=}" >"$logs/${#pids[@]}.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then echo "-- ${labels[$i]}: passed"; else echo "-- ${labels[$i]}: FAILED" && failed=1; fi
    cat "$logs/$i.log"
  done
  rm -rf "$logs"
  timings+=("$(printf '%5d s  %s' $((SECONDS - started)) "$name")")
  return $failed
}
step "the Prisma clients and the route types" bash -c 'npm run db:generate && npx react-router typegen'
side_by_side "typecheck, lint (ESLint, Prettier's check, the layers, the comments' share) and build, side by side" \
  "typecheck=npx tsc --noEmit" "lint=npm run lint" "build=npm run build:app"
step "unit and integration tests on SQLite (some start the built app)" npx vitest run
step "integration tests on PostgreSQL (a throwaway server of its own; docs/decisions/034)" env TEST_DATABASE=postgres npx vitest run
step "end-to-end tests" npx playwright test
step "benchmark, smoke mode (proves the script runs; its figures are not measurements)" npm run bench -- --smoke
echo "== durations"
printf '%s\n' "${timings[@]}"
# The Docker image is built and run by scripts/container-test.sh: from .ci/run after this, since it needs a
# Docker daemon and the npm registry (the image installs its own node_modules), and takes minutes.
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  where="Docker answers on this machine: run it with 'bash scripts/container-test.sh'"
else
  where="it needs a Docker daemon, and none answers on this machine"
fi
echo "== NOT RUN by npm test: the container test (builds the Docker image and runs it; CI runs it after npm test). $where."
