// extension.js against a stand-in for the editor's API: what it registers,
// the command line it starts the adapter with, the configuration it fills
// in, and the board panel's traffic. (The real editor was tried by hand:
// docs/editors.md says what.)
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const Module = require('node:module');
const path = require('node:path');

function fakeVscode() {
  const registered = {};
  const posted = [];
  const api = {
    registered,
    posted,
    settings: { path: '/opt/hc11lab', showBoard: true },
    activeTextEditor: { document: { fileName: '/work/game/Viergewinnt.asm' } },
    ViewColumn: { Beside: -2 },
    DebugAdapterExecutable: class { constructor(command, args) { this.command = command; this.args = args; } },
    workspace: { getConfiguration: () => ({ get: (k) => api.settings[k] }) },
    window: {
      get activeTextEditor() { return api.activeTextEditor; },
      showWarningMessage: (m) => posted.push({ warning: m }),
      createWebviewPanel: () => {
        const panel = {
          webview: {
            cspSource: 'vscode-resource:',
            html: '',
            postMessage: (m) => posted.push(m),
            onDidReceiveMessage: (f) => { panel.receive = f; },
          },
          reveal: () => {},
          onDidDispose: () => {},
        };
        api.panel = panel;
        return panel;
      },
    },
    debug: {
      registerDebugAdapterDescriptorFactory: (t, f) => { registered.factory = [t, f]; return {}; },
      registerDebugConfigurationProvider: (t, p) => { registered.provider = [t, p]; return {}; },
      registerDebugAdapterTrackerFactory: (t, f) => { registered.tracker = [t, f]; return {}; },
      onDidTerminateDebugSession: () => ({}),
      activeDebugSession: null,
    },
    commands: { registerCommand: (name, f) => { registered[name] = f; return {}; } },
  };
  return api;
}

function loadExtension(api) {
  const original = Module._load;
  Module._load = function (request, ...rest) {
    if (request === 'vscode') return api;
    return original.call(this, request, ...rest);
  };
  try {
    delete require.cache[path.join(__dirname, '..', 'extension.js')];
    return require('../extension');
  } finally {
    Module._load = original;
  }
}

const tick = () => new Promise((r) => setImmediate(r));

test('the adapter is `hc11lab dap` from the setting', () => {
  const api = fakeVscode();
  loadExtension(api).activate({ subscriptions: [] });
  const [type, factory] = api.registered.factory;
  assert.strictEqual(type, 'hc11lab');
  const exe = factory.createDebugAdapterDescriptor({});
  assert.strictEqual(exe.command, '/opt/hc11lab');
  assert.deepStrictEqual(exe.args, ['dap']);
});

test('F5 without launch.json debugs the file in the editor', () => {
  const api = fakeVscode();
  loadExtension(api).activate({ subscriptions: [] });
  const [, provider] = api.registered.provider;
  const c = provider.resolveDebugConfiguration({ uri: { fsPath: '/work/game' } }, {});
  assert.strictEqual(c.type, 'hc11lab');
  assert.strictEqual(c.request, 'launch');
  assert.strictEqual(c.program, '/work/game/Viergewinnt.asm');
  assert.strictEqual(c.cwd, '/work/game');
  const kept = provider.resolveDebugConfiguration(undefined, { type: 'hc11lab', request: 'launch', name: 'x', program: 'a.asm' });
  assert.strictEqual(kept.program, 'a.asm');
});

test('the board panel opens at the first LCD, draws it and sends key taps', async () => {
  const api = fakeVscode();
  loadExtension(api).activate({ subscriptions: [] });
  const requests = [];
  const lcd = { hasLcd: true, hasKeys: true, width: 128, height: 64, pixels: '', visible: true, backlight: true, keys: 0, cycles: 5, running: false };
  const session = {
    type: 'hc11lab',
    customRequest: (command, args) => { requests.push([command, args]); return Promise.resolve(command === 'hc11lab/lcd' ? lcd : undefined); },
  };
  const tracker = api.registered.tracker[1].createDebugAdapterTracker(session);
  tracker.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'entry' } });
  await tick();
  assert.ok(api.panel, 'the panel opened');
  assert.ok(api.panel.webview.html.includes('<canvas'));
  await tick();
  api.panel.webview.postMessage = (m) => api.posted.push(m);
  tracker.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'step' } });
  await tick();
  assert.ok(api.posted.some((m) => m.type === 'lcd' && m.body.cycles === 5), JSON.stringify(api.posted));
  api.panel.receive({ type: 'key', key: 3 });
  await tick();
  assert.deepStrictEqual(requests.find(([c]) => c === 'hc11lab/key'), ['hc11lab/key', { key: 3, action: 'tap' }]);
  // While running it keeps asking; an end stops that.
  tracker.onDidSendMessage({ type: 'response', command: 'continue', success: true });
  const before = requests.filter(([c]) => c === 'hc11lab/lcd').length;
  await new Promise((r) => setTimeout(r, 700));
  const during = requests.filter(([c]) => c === 'hc11lab/lcd').length;
  assert.ok(during >= before + 2, `asked ${during - before} times in 0.7 s`);
  tracker.onDidSendMessage({ type: 'event', event: 'terminated' });
  tracker.onExit();
  const after = requests.length;
  await new Promise((r) => setTimeout(r, 400));
  assert.strictEqual(requests.length, after, 'no requests after the end');
});
