# HLA nomenclature verification and match service: one image for the API and the bulk workers,
# on Node 26 (the active LTS line since October 2026).
#   docker build -t hla-verify .
#   docker run -p 8000:8000 hla-verify                                   # API, embedded bulk jobs
#   docker run hla-verify node --import tsx workers/bulk-worker.ts       # a bulk worker (needs REDIS_URL)
# No release data is baked in: at start the service fetches the pinned release (HLA_SERVICE_TAG)
# into HLA_SERVICE_CACHE_DIR and checks every file's MD5, or reads a mirror mounted at
# HLA_SERVICE_DATA_DIR. TypeScript runs through tsx (a runtime dependency): there is no build step.

FROM node:26-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:26-slim AS runtime
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    HLA_SERVICE_CACHE_DIR=/var/cache/hla-verify
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src ./src
COPY workers ./workers
RUN mkdir -p /var/cache/hla-verify && chown node:node /var/cache/hla-verify
USER node
EXPOSE 8000
# The release is fetched and verified before /healthz answers: allow for it in start-period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "src/server.ts"]
