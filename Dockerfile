# qroute for production: node dist/src/main.js against your PostgreSQL (DATABASE_URL and WEBHOOK_SECRET_KEY
# required; the embedded PostgreSQL is for laptops and is not set up in this image). See compose.yaml.
#
# Install scripts are skipped in both stages: nothing built or run here needs one (tsc, redocly and the service are
# plain JavaScript; the embedded PostgreSQL's binaries are the only package with a postinstall), and the node:20
# image's npm 10 would otherwise run every package's script, ignoring package.json's allowScripts (npm 11).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/package.json
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json redocly.yaml ./
COPY src src
COPY generated generated
COPY openapi openapi
COPY scripts scripts
RUN npm run build && npm run docs

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/package.json
# Runtime dependencies only: nothing the server imports is a devDependency (test/integration/container-files.test.ts).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY --from=build /app/docs-dist docs-dist
COPY openapi/v1.yaml openapi/v1.yaml
# The dashboard's own stylesheet and script (read at start, served with content hashes; Pico and htmx come from node_modules).
COPY src/dashboard/shared/assets src/dashboard/shared/assets
# The scan journal (SCAN_JOURNAL_DIR, default DATA_DIR/journal = /app/data/journal) is the one thing the service
# writes to disk when DATABASE_URL is set: scans answered while PostgreSQL does not commit. /app belongs to root, so
# the folder is made here for the node user; compose.yaml mounts a volume on it so the journal outlives the container.
RUN mkdir -p /app/data/journal && chown -R node:node /app/data
# The node image's unprivileged user.
USER node
EXPOSE 3000
# No curl in slim images: Node's own fetch asks /healthz (200 while the process serves).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1's command, so the SIGTERM of `docker stop` reaches the service (no npm or shell in between).
CMD ["node", "dist/src/main.js"]
