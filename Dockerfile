# Impact Narrative Studio: one container, SQLite and the session secret on the /data volume.
# What the image keeps and why, and its measured size: docs/decisions/028-a-container-that-builds-and-is-tested.md.
# scripts/container-test.sh builds and exercises it (CI runs it).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compilers: argon2 and better-sqlite3 ship prebuilt binaries for linux x64 and arm64 (glibc), and
# package.json's allowScripts keeps npm from running the node-gyp build it would otherwise infer for
# better-sqlite3 (docs/decisions/010-node-24.md).
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
# The server (build/server, build/client) and its commands bundled with the code they import
# (build/cli: admin, backup, restore and Prisma's config); then the production dependencies alone,
# without the files of theirs that nothing here opens (scripts/slim-node-modules.sh).
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && sh scripts/slim-node-modules.sh

FROM node:24-bookworm-slim
# npm runs only the operator's commands here (npm run admin, backup, restore): no update notice.
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=file:/data/app.db \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --home-dir /app app \
  && mkdir /data && chown app:app /data
COPY --from=build /app/node_modules ./node_modules
# package.json: `npm run admin`, `backup` and `restore` run build/cli's commands; `npm start` checks Node.js first.
COPY --from=build /app/package.json ./
COPY --from=build /app/scripts/check-node.cjs ./scripts/
# Pending migrations are applied at start-up by Prisma's CLI, which reads prisma.config.js and prisma/.
COPY --from=build /app/build/cli/prisma.config.js ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/build ./build
USER app
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://localhost:'+process.env.PORT+'/resources/healthcheck').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm), so SIGTERM from `docker stop` reaches the server and it shuts down gracefully.
# The same command line as `npm start` (package.json): the young-generation cap is in docs/decisions/010.
CMD ["node", "--max-semi-space-size=32", "build/server/index.js"]
