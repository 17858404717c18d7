#!/usr/bin/env bash
# Builds the extension and packages it as editors/vscode/flinklint.vsix: installs the locked
# packages from the npm registry, compiles the TypeScript, runs `vsce package`.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi
npx tsc -p ./
npx vsce package --out flinklint.vsix
