#!/usr/bin/env bash
# npm test: typecheck, unit and integration tests (Vitest), then the built app in Chromium (Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian's chromium for the end-to-end tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at $chromium_path: run 'sudo apt-get install chromium' or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

echo "== typecheck"
npm run typecheck
echo "== build"
npm run build
echo "== unit and integration tests (some start the built app)"
npx vitest run
echo "== end-to-end tests"
npx playwright test
echo "== benchmark, smoke mode (proves the script runs; its figures are not measurements)"
npm run bench -- --smoke
