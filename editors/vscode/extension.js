// The okite extension: the language `okite` for *.rule files (highlighting comes from
// syntaxes/okite.tmLanguage.json) and a client of the language server `okite lsp`, started over
// stdin and stdout. okite must be on PATH, or the setting okite.server.command must name it.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

const DEFAULT_COMMAND = 'okite';
const DEFAULT_ARGS = ['lsp'];

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('okite');
  const command = config.get('server.command') || DEFAULT_COMMAND;
  const args = config.get('server.args') || DEFAULT_ARGS;
  // No transport is named: an executable speaks over stdio by default, and naming
  // TransportKind.stdio would append `--stdio` to the arguments.
  const server = { command, args };
  const serverOptions = { run: server, debug: server };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'okite' },
      { scheme: 'untitled', language: 'okite' },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.rule'),
    },
  };
  client = new LanguageClient('okite', 'okite', serverOptions, clientOptions);
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `okite: could not start \`${[command, ...args].join(' ')}\` (${err.message}). ` +
        'Is okite on PATH? The setting okite.server.command can name it.'
    );
  });
  context.subscriptions.push({ dispose: () => deactivate() });
}

function deactivate() {
  if (!client) {
    return undefined;
  }
  const c = client;
  client = undefined;
  return c.stop().catch(() => undefined);
}

module.exports = { activate, deactivate };
