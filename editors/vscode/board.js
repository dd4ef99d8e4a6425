// The board panel's logic, free of the editor's API so that it can be
// tested with plain Node: the keys, the LCD picture's bits, the panel's
// HTML, and when to ask the debug adapter for the LCD.
'use strict';

/** The trainer11's keys: number and what the game does with it. */
const KEYS = [
  { key: 0, label: 'drop' },
  { key: 1, label: 'left' },
  { key: 2, label: '2' },
  { key: 3, label: 'right' },
  { key: 4, label: 'reset' },
  { key: 5, label: '5' },
  { key: 6, label: '6' },
  { key: 7, label: '7' },
];

/** How often the panel asks for the LCD while the program runs (ms). */
const POLL_MS = 250;

/**
 * Whether pixel (x, y) is on: the adapter's `pixels` are 64 rows of 16
 * bytes, the leftmost pixel in each byte's top bit. Also runs inside the
 * panel (its source is copied into the page).
 */
function pixelOn(bytes, width, x, y) {
  const i = y * (width >> 3) + (x >> 3);
  return (bytes[i] & (0x80 >> (x & 7))) !== 0;
}

/** The pixels as rows of `#` and `.`, as `hc11lab run --lcd-text` prints them. */
function lcdText(body) {
  const bytes = Buffer.from(body.pixels, 'base64');
  const rows = [];
  for (let y = 0; y < body.height; y++) {
    let row = '';
    for (let x = 0; x < body.width; x++) row += pixelOn(bytes, body.width, x, y) ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

/**
 * What a message between the editor and the adapter says about the
 * program: running, stopped or ended (`null`: nothing new).
 */
function runStateAfter(message) {
  if (!message || typeof message !== 'object') return null;
  if (message.type === 'event') {
    if (message.event === 'stopped') return 'stopped';
    if (message.event === 'continued') return 'running';
    if (message.event === 'terminated' || message.event === 'exited') return 'ended';
    return null;
  }
  if (message.type === 'response' && message.success) {
    const runs = ['continue', 'next', 'stepIn', 'stepOut', 'configurationDone', 'restart'];
    if (runs.includes(message.command)) return 'running';
  }
  return null;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** The panel's page: a canvas for the LCD, the keys, a status line. */
function panelHtml(nonce, cspSource) {
  const buttons = KEYS.map((k) =>
    `<button data-key="${k.key}" title="key ${k.key}">${escapeHtml(k.label)}</button>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
  canvas { image-rendering: pixelated; width: 512px; max-width: 100%; border: 1px solid var(--vscode-panel-border); }
  #keys { margin: 8px 0; display: flex; gap: 4px; flex-wrap: wrap; }
  button { min-width: 3.5em; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 6px; cursor: pointer; }
  button.held { outline: 2px solid var(--vscode-focusBorder); }
  #status { opacity: 0.8; }
</style></head>
<body>
<canvas id="lcd" width="128" height="64" aria-label="the board's LCD"></canvas>
<div id="keys">${buttons}</div>
<div id="status">waiting for the debug session</div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
${pixelOn.toString()}
const canvas = document.getElementById('lcd');
const ctx = canvas.getContext('2d');
function draw(body) {
  const status = document.getElementById('status');
  if (!body.hasLcd) { status.textContent = 'this board has no LCD'; return; }
  const raw = atob(body.pixels);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  const img = ctx.createImageData(body.width, body.height);
  const lit = body.visible && body.backlight;
  for (let y = 0; y < body.height; y++) for (let x = 0; x < body.width; x++) {
    const on = body.visible && pixelOn(bytes, body.width, x, y);
    const p = 4 * (y * body.width + x);
    const c = on ? [0x20, 0x28, 0x40] : (lit ? [0xB8, 0xD0, 0x70] : [0x90, 0x98, 0x88]);
    img.data[p] = c[0]; img.data[p + 1] = c[1]; img.data[p + 2] = c[2]; img.data[p + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  for (const b of document.querySelectorAll('button')) {
    b.classList.toggle('held', (body.keys >> Number(b.dataset.key)) & 1);
    b.disabled = !body.hasKeys;
  }
  status.textContent = (body.running ? 'running' : 'stopped') + ', E-cycle ' + body.cycles;
}
window.addEventListener('message', (e) => { if (e.data && e.data.type === 'lcd') draw(e.data.body); });
for (const b of document.querySelectorAll('button')) {
  b.addEventListener('click', () => vscode.postMessage({ type: 'key', key: Number(b.dataset.key) }));
}
</script>
</body></html>`;
}

module.exports = { KEYS, POLL_MS, pixelOn, lcdText, runStateAfter, panelHtml, escapeHtml };
