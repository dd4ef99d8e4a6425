// The board panel's logic, without the editor.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const board = require('../board');

test('pixels are rows of 16 bytes, leftmost pixel in the top bit', () => {
  const bytes = new Uint8Array(1024);
  bytes[0] = 0x80; // (0,0)
  bytes[16 + 1] = 0x01; // (15,1)
  bytes[63 * 16 + 15] = 0x01; // (127,63)
  const body = { width: 128, height: 64, pixels: Buffer.from(bytes).toString('base64') };
  const rows = board.lcdText(body);
  assert.strictEqual(rows.length, 64);
  assert.strictEqual(rows[0][0], '#');
  assert.strictEqual(rows[0][1], '.');
  assert.strictEqual(rows[1][15], '#');
  assert.strictEqual(rows[63][127], '#');
  assert.strictEqual(rows.join('').split('#').length - 1, 3);
});

test('the run state follows the protocol messages', () => {
  assert.strictEqual(board.runStateAfter({ type: 'event', event: 'stopped', body: {} }), 'stopped');
  assert.strictEqual(board.runStateAfter({ type: 'event', event: 'terminated' }), 'ended');
  assert.strictEqual(board.runStateAfter({ type: 'response', command: 'continue', success: true }), 'running');
  assert.strictEqual(board.runStateAfter({ type: 'response', command: 'continue', success: false }), null);
  assert.strictEqual(board.runStateAfter({ type: 'response', command: 'threads', success: true }), null);
  assert.strictEqual(board.runStateAfter({ type: 'event', event: 'output' }), null);
  assert.strictEqual(board.runStateAfter(undefined), null);
});

test('the page has the eight keys and only the nonce script', () => {
  const html = board.panelHtml('abc123', 'vscode-resource:');
  for (const k of board.KEYS) assert.ok(html.includes(`data-key="${k.key}"`), `key ${k.key}`);
  assert.strictEqual(board.KEYS.length, 8);
  assert.ok(html.includes("script-src 'nonce-abc123'"));
  assert.strictEqual(html.split('<script').length - 1, 1);
  assert.ok(html.includes('function pixelOn'), 'the tested pixel function runs in the page');
  assert.strictEqual(board.escapeHtml('<a&"'), '&lt;a&amp;&quot;');
});
