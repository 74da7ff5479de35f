#!/usr/bin/env bash
# `npm test`: every check the project has, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }

step "API types from the vendor spec"
node scripts/gen-api.mjs
step "Lint (ESLint with import boundaries, Prettier)"
npx eslint --max-warnings 0 .
npx prettier --check . --log-level warn
step "Type-check (node, electron shell, renderer)"
npm run --silent typecheck
step "Build (main, preload, renderer)"
npx electron-vite build --logLevel warn
step "Electronegativity"
node scripts/electronegativity.mjs
step "Tests (vitest, against a real Secret Service, real SQLite, the real sandbox server and Chromium)"
bash scripts/with-keychain.sh npx vitest run "$@"
