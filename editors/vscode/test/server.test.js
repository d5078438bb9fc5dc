'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serverCommand } = require('../server');

const settings = (values) => ({ get: (key) => values[key] });

test('the server is `nvp4c lsp` by default', () => {
  assert.deepStrictEqual(serverCommand(settings({})), { command: 'nvp4c', args: ['lsp'] });
  assert.deepStrictEqual(serverCommand(settings({ 'server.path': '  ' })), { command: 'nvp4c', args: ['lsp'] });
});

test('server.path and server.extraArgs are used', () => {
  const s = settings({ 'server.path': '/opt/nvp4c/bin/nvp4c', 'server.extraArgs': ['--x', 3, '--y'] });
  assert.deepStrictEqual(serverCommand(s), { command: '/opt/nvp4c/bin/nvp4c', args: ['lsp', '--x', '--y'] });
});
