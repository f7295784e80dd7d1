#!/usr/bin/env bash
# The gates beyond unit tests, run by .ci/run after the build: the official conformance suite in
# both roles and both revisions (the server also as a three-instance Redis cluster), the cluster demo,
# the packed-packages smoke test, and the benchmark's smoke mode.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "--- conformance: server (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-server conformance

echo "--- conformance: server behind the round-robin proxy, three Redis-backed instances (both revisions)"
pnpm --filter @mcpkit/conformance-server conformance:cluster

echo "--- conformance: client, non-auth scenarios (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-client conformance

echo "--- conformance: client, auth scenarios (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-auth-client conformance

echo "--- cluster demo: three Redis-backed everything servers behind the proxy, a scenario across them"
node apps/cluster-demo/dist/main.js

echo "--- packed packages from a plain npm project (ESM, CommonJS, CLI)"
node scripts/smoke-pack.mjs

echo "--- release: pnpm release to a Verdaccio on loopback, then npm i mcpkit zod and the quick starts, a custom host, the TypeScript 5.4/5.9/6/7 matrix, a second release (apps/release-check; 30 min budget)"
timeout 1900 pnpm release:check

echo "--- soak: 2 minutes, mcpkit and the official SDK v1 side by side, then memory per session"
pnpm soak --minutes 2 --sessions 1000

if [ -d apps/bench ]; then
  echo "--- benchmark smoke mode"
  pnpm bench --smoke
fi
