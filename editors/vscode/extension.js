// The bucketlint extension starts `bucketlint lsp` on standard input and output and lets
// vscode-languageclient speak the protocol: diagnostics, quick fixes and hovers come from
// the server (docs/editor.md).
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

// The files bucketlint reads: the ones an editor opens as text are synchronised (their
// unsaved text counts), and a change on disk to any of them re-checks the workspace.
const documents = [
  { scheme: 'file', language: 'sql' },
  { scheme: 'file', language: 'python' },
  { scheme: 'file', language: 'scala' },
  { scheme: 'file', language: 'java' },
  { scheme: 'file', pattern: '**/*.{hql,ddl,explain,plan,describe}' },
  { scheme: 'file', pattern: '**/.bucketlint.yaml' },
];
const watched = '**/{*.sql,*.hql,*.ddl,*.py,*.scala,*.java,*.ipynb,*.yaml,*.yml,*.json,*.txt,*.log,*.explain,*.plan,spark-defaults.conf}';

let client;

function start(context) {
  const config = vscode.workspace.getConfiguration('bucketlint');
  const command = config.get('path', 'bucketlint');
  const args = ['lsp', ...config.get('args', [])];
  client = new LanguageClient(
    'bucketlint',
    'bucketlint',
    { command, args },
    {
      documentSelector: documents,
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher(watched) },
    },
  );
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `bucketlint: could not start "${command} lsp" (${err.message}). Install bucketlint or set bucketlint.path.`,
    );
  });
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('bucketlint.restart', async () => {
      if (client) {
        await client.stop().catch(() => {}); // a client that never started has nothing to stop
      }
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('bucketlint')) {
        await vscode.commands.executeCommand('bucketlint.restart');
      }
    }),
  );
  await start(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
