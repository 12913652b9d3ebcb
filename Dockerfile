# Impact Narrative Studio: one container, SQLite and the session secret on the /data volume.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compilers: argon2 and better-sqlite3 ship prebuilt binaries for linux x64 and arm64 (glibc), and
# package.json's allowScripts keeps npm from running the node-gyp build it would otherwise infer for
# better-sqlite3 (docs/decisions/010-node-24.md).
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=file:/data/app.db
WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --home-dir /app app \
  && mkdir /data && chown app:app /data
COPY --from=build /app/node_modules ./node_modules
# tsconfig.json: tsx resolves the `~/` paths of the admin and backup scripts with it.
COPY --from=build /app/package.json /app/prisma.config.ts /app/tsconfig.json ./
# build/server is the server, build/client the browser build (public/ included).
COPY --from=build /app/build ./build
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts ./scripts
# The admin and backup commands run the TypeScript sources with tsx, and prisma.config.ts (read by the
# migrations at start-up) imports from app/.
COPY --from=build /app/app ./app
USER app
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://localhost:'+process.env.PORT+'/resources/healthcheck').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm), so SIGTERM from `docker stop` reaches the server and it shuts down gracefully.
# The same command line as `npm start` (package.json): the young-generation cap is in docs/decisions/010.
CMD ["node", "--max-semi-space-size=32", "build/server/index.js"]
