# The Workgraph server (docs/operations.md, "Running the image"). Node runs the TypeScript
# sources directly, so there is nothing to compile: one stage installs the production
# dependencies, the final one adds the sources to them and runs as the base image's `node` user.
#
#   docker build -t workgraph .
#   docker run -p 8080:8080 -e DATABASE_URL=… -e WORKGRAPH_SECRET=… -e PUBLIC_URL=… workgraph
#
# The base is an argument so that a machine without access to Docker Hub can build on a copy of
# its own; whatever it is, it must have node and npm on the PATH and a `node` user, as the
# official Node images do.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
# Only the manifests, so this layer (and npm's download) is reused until the dependencies change.
COPY package.json package-lock.json .npmrc ./
COPY packages/server/package.json packages/server/
COPY packages/sdk/package.json packages/sdk/
# No production dependency has an install script; the root's `node` devDependency (a Node binary
# for local runs) is left out with the rest, as the base image brings Node. npm's cache stays
# behind with this stage.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE}
WORKDIR /app
# The code belongs to root and is read-only to the server; only the data folder is its own.
COPY --from=dependencies /app/node_modules node_modules
COPY package.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/server/package.json packages/server/
COPY packages/server/bin packages/server/bin
COPY packages/server/src packages/server/src
RUN mkdir -p /data && chown node:node /data

# Documented settings only (docs/configuration.md): listen on every interface of the container,
# and keep the embedded database, when DATABASE_URL is unset, in the /data volume.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    WORKGRAPH_DATA=/data
USER node
EXPOSE 8080
# The slim image has no curl: Node asks. /readyz is 503 while the database does not answer or
# the server drains, so an orchestrator stops sending it requests. A `worker` serves no API (only
# `/metrics` and `/healthz` on METRICS_PORT when METRICS_TOKEN is set): compose.yaml gives it no
# health check.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `serve` and `worker` apply pending migrations when they start; `migrate` does only that. The
# young generation is kept small as `npm start` keeps it (docs/configuration.md).
ENTRYPOINT ["node", "--max-semi-space-size=16", "packages/server/bin/workgraph.js"]
CMD ["serve"]
