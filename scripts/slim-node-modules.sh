#!/bin/sh
# Run by the Dockerfile after `npm run build` and `npm prune --omit=dev`: removes from node_modules the
# files nothing in the image opens. What stays serves the built server, the bundled commands in
# build/cli, and Prisma's CLI applying migrations at start-up. scripts/container-test.sh proves it:
# migrations on an empty volume, pages, sign-up, a streamed generation, npm run admin and backup.
# docs/decisions/028-a-container-that-builds-and-is-tested.md has the figures.
set -eu
cd "$(dirname "$0")/../node_modules"
# It would break a working checkout (its type checks, its editor): only ever after the prune.
if [ -d vite ]; then
  echo "slim-node-modules.sh: dev dependencies are installed here; run it after npm prune --omit=dev, as the Dockerfile does" >&2
  exit 1
fi
arch=$(node -p process.arch)

# An optional peer of Prisma's client and React Router's node packages, for their types only.
rm -rf typescript
# Type declarations and source maps: read by editors and debuggers, never by node.
find . -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# Prisma's client: the two generated clients, bundled into build/server from app/generated, load
# runtime/client.js and the query compiler of their database (SQLite's or PostgreSQL's, as wasm in a
# module). The runtimes for the native engines and the edge, and every other database's, are never loaded.
find @prisma/client/runtime -type f ! -name client.js ! -name 'query_compiler_bg.sqlite.*mjs' ! -name 'query_compiler_bg.postgresql.*mjs' -delete
rm -rf @prisma/client/generator-build
# Prisma's CLI runs `migrate deploy` only, through the schema engine (schema_engine_bg.wasm) and the
# driver adapter: not the query engines it bundles, Studio's files, or the prisma-client generator.
rm -f prisma/build/query_engine_bg.*.wasm prisma/build/query_compiler_bg.*.wasm
rm -rf prisma/build/public prisma/prisma-client

# The native modules' binaries for this platform only, without the sources they could be built from.
rm -rf better-sqlite3/deps better-sqlite3/src
find better-sqlite3/prebuilds -type f ! -name "linux-$arch.node" -delete
find argon2/prebuilds -mindepth 1 -maxdepth 1 ! -name "linux-$arch" -exec rm -rf {} +
