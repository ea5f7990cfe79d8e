# syntax=docker/dockerfile:1
#
# Pagelight's production image (docs/deployment.md#the-image).
#
# The build stage runs scripts/build-production.sh, the same script .ci/run runs, and CI also
# assembles this file's final stage from its COPY lines and runs the login flow on it, on this
# NODE_VERSION. So keep every step here to what that script and those COPY lines cover.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-trixie-slim AS build
WORKDIR /app
COPY . .
RUN scripts/build-production.sh

FROM node:${NODE_VERSION}-trixie-slim
# HOST: inside a container the app must listen on every interface to be reached at all.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Only what runs: the built app and emulator package, production dependencies, views and static
# files. Owned by root and read-only to the app, which runs as the image's unprivileged `node` user.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/views ./views
COPY --from=build /app/public ./public
# npm start's build step, which here only checks that dist/ is there (NODE_ENV=production).
COPY --from=build /app/scripts/build-before-start.js ./scripts/build-before-start.js
COPY --from=build /app/packages/graph-emulator/package.json ./packages/graph-emulator/package.json
COPY --from=build /app/packages/graph-emulator/dist ./packages/graph-emulator/dist
COPY --from=build /app/packages/graph-emulator/views ./packages/graph-emulator/views
# Its built-in seeds are JSON files it reads at start (packages/graph-emulator/seeds), as its own package ships them.
COPY --from=build /app/packages/graph-emulator/seeds ./packages/graph-emulator/seeds
USER node
EXPOSE 3000
# Liveness only (/livez never checks Redis): a Redis blip must not get every instance restarted.
# Slim images have no curl; Node's fetch does the probe.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself is PID 1, with no shell or npm in between: src/server.ts handles SIGTERM and SIGINT
# (drain, then exit 0), and CI proves that `node dist/server.js` exits 0 on SIGTERM. The app
# starts no child processes, so there are no zombies for an init to reap.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
