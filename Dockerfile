# syntax=docker/dockerfile:1.7
# One image per process, from one build:
#   docker build --target gateway -t auth/gateway .
#   (targets: gateway, identity, session, otp, recovery, disclaimer, audit, and authctl, the operator's
#   tool, for bootstrapping a company: docs/operations.md, "The first company")
# Images run as the unprivileged `node` user and start with OpenTelemetry's register module, which
# does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set.

# The tag's digest on 2026-08-25 (Node 24.19.0): a rebuild gets the same base until this line changes;
# its major is the one the root package.json's engines states (docs/operations.md, "Node.js").
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

# The layers (docs/operations.md, "Images"): the lock file and every workspace's package.json, then
# `npm ci`, then the sources; a change of sources alone rebuilds from `COPY . .` on, and installs
# nothing. infra/checks holds these manifests equal to the root package.json's workspaces.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false NPM_CONFIG_UPDATE_NOTIFIER=false
COPY package.json package-lock.json ./
COPY bench/package.json bench/
COPY gateway/package.json gateway/
COPY infra/checks/package.json infra/checks/
COPY infra/local/package.json infra/local/
COPY packages/delivery/package.json packages/delivery/
COPY packages/errors/package.json packages/errors/
COPY packages/events/package.json packages/events/
COPY packages/grpc-kit/package.json packages/grpc-kit/
COPY packages/i18n/package.json packages/i18n/
COPY packages/kv/package.json packages/kv/
COPY packages/login-ids/package.json packages/login-ids/
COPY packages/pg/package.json packages/pg/
COPY packages/runtime/package.json packages/runtime/
COPY packages/suite/package.json packages/suite/
COPY packages/telemetry/package.json packages/telemetry/
COPY packages/testing/package.json packages/testing/
COPY proto/package.json proto/
COPY services/audit/package.json services/audit/
COPY services/disclaimer/package.json services/disclaimer/
COPY services/identity/package.json services/identity/
COPY services/otp/package.json services/otp/
COPY services/recovery/package.json services/recovery/
COPY services/session/package.json services/session/
COPY test-e2e/package.json test-e2e/
COPY tools/authctl/package.json tools/authctl/
COPY web/login-page/package.json web/login-page/
RUN npm ci
COPY . .
RUN npx turbo run build --filter=@auth/gateway... --filter=@auth/identity... --filter=@auth/session... \
      --filter=@auth/otp... --filter=@auth/recovery... --filter=@auth/disclaimer... --filter=@auth/audit... \
      --filter=@auth/authctl... \
 && npm prune --omit=dev \
 && rm -rf test-e2e infra packages/*/src services/*/src gateway/src tools/*/src proto/gen

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# Heap sizes that keep each process's resident memory under 150 MiB (docs/performance.md).
ENV NODE_ENV=production NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=128"
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/proto ./proto
# Where compose's shared volume `events` holds the events file the relays append to and audit reads
# (infra/compose.yaml): a new volume takes this directory's owner, the node user.
RUN mkdir -p /var/lib/auth/events && chown node:node /var/lib/auth/events
USER node

FROM runtime AS gateway
COPY --from=build /app/gateway ./gateway
WORKDIR /app/gateway
ENV HOST=0.0.0.0 PORT=8080 METRICS_PORT=9464
EXPOSE 8080 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS identity
COPY --from=build /app/services/identity ./services/identity
WORKDIR /app/services/identity
# Each hash takes 19 MiB: identity keeps a smaller young generation than the others.
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50051 METRICS_PORT=9464 NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=128"
EXPOSE 50051 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS session
COPY --from=build /app/services/session ./services/session
WORKDIR /app/services/session
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50052 METRICS_PORT=9464
EXPOSE 50052 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS otp
COPY --from=build /app/services/otp ./services/otp
WORKDIR /app/services/otp
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50053 METRICS_PORT=9464
EXPOSE 50053 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS recovery
COPY --from=build /app/services/recovery ./services/recovery
WORKDIR /app/services/recovery
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50054 METRICS_PORT=9464
EXPOSE 50054 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS disclaimer
COPY --from=build /app/services/disclaimer ./services/disclaimer
WORKDIR /app/services/disclaimer
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50055 METRICS_PORT=9464
EXPOSE 50055 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS audit
COPY --from=build /app/services/audit ./services/audit
WORKDIR /app/services/audit
ENV GRPC_HOST=0.0.0.0 GRPC_PORT=50056 METRICS_PORT=9464
EXPOSE 50056 9464
CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]

FROM runtime AS authctl
COPY --from=build /app/tools/authctl ./tools/authctl
COPY --from=build /app/examples ./examples
WORKDIR /app
# The operator's certificate and the admin token come from the environment (AUTH_TLS_*_FILE,
# AUTH_ADMIN_TOKEN), the services' addresses from AUTH_*_ADDR.
ENTRYPOINT ["node", "tools/authctl/dist/main.js"]
CMD ["--help"]
