# Photobook backend image, two targets built from one build stage:
#   docker build -t photobook .                                          API and DBOS worker (ROLE=all|api|worker)
#   docker build --target temporal-worker -t photobook-temporal-worker .  Temporal worker (TEMPORAL_ADDRESS)
# Both run `node` as process 1 on bundles built here (nothing is bundled or transpiled at start), with
# production dependencies only, as the unprivileged `node` user, on a read-only root filesystem:
#   docker run --read-only --tmpfs /tmp -v photobook-data:/app/.data -p 4000:4000 photobook
# Writable mounts: DATA_DIR (/app/.data: the embedded PostgreSQL when DATABASE_URL is unset, the credential
# pepper outside production, the local printer's jobs and the filesystem file store) and /tmp (the embedded
# PostgreSQL's password file and socket). docs/operations.md, Image.
# What goes into /app is made by scripts/build-image-payload.sh, which test/deploy/image-build.test.ts
# runs without Docker and then starts the way this file's ENV and CMD say.
# Fonts: the image installs no font package. Text is drawn by librsvg and Pango through fontconfig, which
# the service points at fonts/fonts.conf: the shipped faces in node_modules only (fonts/README.md).

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Every dependency, dev ones included: esbuild bundles src/, Temporal's bundler the workflows.
RUN npm ci --no-audit --no-fund
COPY . .

FROM build AS app-payload
RUN scripts/build-image-payload.sh /payload app

FROM build AS temporal-worker-payload
RUN scripts/build-image-payload.sh /payload temporal-worker

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# The unprivileged `node` user owns DATA_DIR, which also lets a fresh named volume inherit the ownership
# (and PostgreSQL refuses to run as root anyway). Nothing else in /app is writable by it.
RUN mkdir -p /app/.data && chown node:node /app/.data
# libheif1 (with libde265) decodes HEIC photos natively through koffi, at half to two thirds of the CPU time of
# the WebAssembly libheif that takes over where it is missing (src/imaging/heic-decoder.ts).
RUN apt-get update && apt-get install -y --no-install-recommends libheif1 && rm -rf /var/lib/apt/lists/*
VOLUME ["/app/.data"]
# glibc's per-thread malloc arenas fragment under libvips' threads; two arenas and mmap for large blocks
# keep image work from holding ~100 MiB it no longer uses (README, campaigns, Measured). The heap limits
# are those `npm start` sets (package.json).
ENV HOST=0.0.0.0 PORT=4000 \
    MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 \
    NODE_OPTIONS="--max-old-space-size=1024 --max-semi-space-size=8"
USER node

FROM runtime AS temporal-worker
COPY --from=temporal-worker-payload /payload /app
# SIGINT and SIGTERM drain the worker (Temporal's runtime), then it closes its connections and exits.
CMD ["node", ".build/worker.js"]

# The default target (last): the API and the DBOS worker. SIGINT and SIGTERM stop it gracefully (src/main.ts).
FROM runtime AS app
COPY --from=app-payload /payload /app
EXPOSE 4000
CMD ["node", ".build/main.js"]
