#!/usr/bin/env bash
# The gates beyond unit tests, run by .ci/run after the build: the official conformance suite in
# both roles and both revisions, the packed-packages smoke test, and the benchmark's smoke mode.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "--- conformance: server (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-server conformance

echo "--- conformance: client, non-auth scenarios (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-client conformance

echo "--- conformance: client, auth scenarios (2026-07-28 and 2025-11-25)"
pnpm --filter @mcpkit/conformance-auth-client conformance

echo "--- packed packages from a plain npm project (ESM, CommonJS, CLI)"
node scripts/smoke-pack.mjs

if [ -d apps/bench ]; then
  echo "--- benchmark smoke mode"
  pnpm bench --smoke
fi
