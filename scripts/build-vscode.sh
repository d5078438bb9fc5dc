#!/usr/bin/env bash
# Builds the VS Code extension (editors/vscode) into
# target/vscode/nvasm-<version>.vsix from a clean checkout: installs the
# locked npm packages (`npm ci`, package-lock.json), runs the extension's
# tests (the client's settings, the TextMate grammar against
# editors/vscode/test/*) and packages it with @vscode/vsce.
# Needs Node.js >= 20 and npm, and the npm registry.
set -euo pipefail
cd "$(dirname "$0")/../editors/vscode"

if ! command -v npm >/dev/null; then
  echo "build-vscode.sh: npm is not installed (Node.js >= 20 and npm are needed)" >&2
  exit 1
fi

npm ci --no-audit --no-fund --loglevel=error
npm test --silent
mkdir -p ../../target/vscode
npm run --silent package
