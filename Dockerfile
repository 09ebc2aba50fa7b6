# syntax=docker/dockerfile:1
# Ward's container image (docs/operations.md, "Container"). Three stages: `build` compiles Ward with the
# same commands as CI (`npm ci`, `npm run build`), `deps` installs the production dependencies alone
# (`npm ci --omit=dev`), and the image holds only those, dist/ and package.json: no compiler, no
# sources, no dev tools. It runs as the `node` user (uid 1000) and writes only to /var/lib/ward, so the
# root filesystem can be read-only. test/ops/container.test.ts checks this file (Docker does not run
# where the tests run).
ARG NODE_IMAGE=node:24-bookworm-slim

# better-sqlite3 compiles from source when no prebuilt binary fits the platform.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/build.mjs
COPY src ./src
RUN npm run build

FROM toolchain AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    WARD_DATA_DIR=/var/lib/ward \
    WARD_HOST=0.0.0.0 \
    WARD_PORT=8080 \
    WARD_TLS=off \
    WARD_MODE=production \
    WARD_DEMO_CLIENTS=off
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/ward && chown node:node /var/lib/ward && chmod 700 /var/lib/ward
USER node
VOLUME ["/var/lib/ward"]
EXPOSE 8080
# The slim image has no curl: node's own fetch asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WARD_PORT||8080)+'/healthz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# What `npm start` runs after its build (package.json), without npm: SIGTERM reaches Ward itself.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=30", "dist/cli.js", "start"]
