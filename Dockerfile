# Impact Narrative Studio: one container, SQLite and the session secret on the /data volume.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary is available.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# patches/ is applied by npm install's postinstall (docs/decisions/007).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=file:/data/app.db
WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --home-dir /app app \
  && mkdir /data && chown app:app /data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/server.js /app/prisma.config.ts /app/tsconfig.json ./
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts ./scripts
# The admin and backup commands run the TypeScript sources with tsx.
COPY --from=build /app/app ./app
USER app
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://localhost:'+process.env.PORT+'/resources/healthcheck').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm), so SIGTERM from `docker stop` reaches the server and it shuts down gracefully.
CMD ["node", "scripts/start.js"]
