// How the extension starts the language server: `nvp4c lsp`, from the
// `nvp4c.server.*` settings. Kept apart from extension.js (which needs the
// VS Code API) so that `npm test` can check it under plain Node.
'use strict';

/**
 * The executable and arguments of the language server.
 * @param {{get: (key: string) => unknown}} settings the `nvp4c` section
 * @returns {{command: string, args: string[]}}
 */
function serverCommand(settings) {
  const path = settings.get('server.path');
  const extra = settings.get('server.extraArgs');
  const command = typeof path === 'string' && path.trim() !== '' ? path.trim() : 'nvp4c';
  const args = ['lsp'];
  if (Array.isArray(extra)) {
    for (const a of extra) {
      if (typeof a === 'string') {
        args.push(a);
      }
    }
  }
  return { command, args };
}

module.exports = { serverCommand };
