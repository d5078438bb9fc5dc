// The VS Code client of nvp4c's language server: starts `nvp4c lsp` (the
// executable named by the `nvp4c.server.path` setting) for `nvasm`
// documents and restarts it when the setting changes.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { serverCommand } = require('./server');

/** @type {LanguageClient | undefined} */
let client;

function createClient() {
  const { command, args } = serverCommand(vscode.workspace.getConfiguration('nvp4c'));
  const executable = { command, args };
  return new LanguageClient(
    'nvp4c',
    'nvp4c language server',
    { run: executable, debug: executable },
    {
      documentSelector: [
        { scheme: 'file', language: 'nvasm' },
        { scheme: 'untitled', language: 'nvasm' },
      ],
    },
  );
}

async function start() {
  client = createClient();
  try {
    await client.start();
  } catch (e) {
    const { command } = serverCommand(vscode.workspace.getConfiguration('nvp4c'));
    vscode.window.showErrorMessage(
      `nvp4c: could not start the language server \`${command} lsp\` (${e instanceof Error ? e.message : e}). ` +
        'Install nvp4c (`cargo install --path .` in its repository) or set "nvp4c.server.path".',
    );
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => {});
  }
  await start();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('nvp4c.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('nvp4c.server')) {
        restart();
      }
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
