#!/usr/bin/env bash
# What `npm test` runs: every workspace's tests, against the stores the environment names (README,
# "Tests"). test-e2e's files take longest, so they start as soon as the build is done, beside the
# other workspaces three at a time; test-e2e's timing files run last, with nothing beside them
# (docs/performance.md, "Where the end-to-end tests' time goes"). Fails if any part failed.
set -uo pipefail
cd "$(dirname "$0")/.."

turbo run build --output-logs=errors-only || exit 1

turbo run test --only --concurrency=3 --continue --filter='!@auth/test-e2e' --output-logs=new-only &
workspaces=$!
npm test --workspace=@auth/test-e2e 2>&1 | sed -u 's/^/@auth\/test-e2e:test: /'
e2e=$?
wait "$workspaces"
units=$?

npm run test:timing --workspace=@auth/test-e2e 2>&1 | sed -u 's/^/@auth\/test-e2e:timing: /'
timing=$?

echo "workspaces: exit $units; test-e2e: exit $e2e; test-e2e's timing files: exit $timing"
exit $((units || e2e || timing))
