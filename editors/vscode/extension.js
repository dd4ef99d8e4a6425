// The VS Code side of hc11lab: starts `hc11lab dap` for debug sessions of
// type `hc11lab`, fills in a configuration when there is no launch.json,
// and shows the board (LCD and keys) in a panel beside the code. Every
// debugging feature is the adapter's; this file only wires the editor up.
'use strict';

const vscode = require('vscode');
const crypto = require('crypto');
const board = require('./board');

/** The board panel: one for all sessions, following the active one. */
class BoardPanel {
  constructor() {
    this.panel = null;
    this.session = null;
    this.state = 'stopped';
    this.timer = null;
    this.asking = false;
  }

  show() {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    this.panel = vscode.window.createWebviewPanel('hc11labBoard', 'hc11lab board',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true });
    const nonce = crypto.randomBytes(16).toString('hex');
    this.panel.webview.html = board.panelHtml(nonce, this.panel.webview.cspSource);
    this.panel.webview.onDidReceiveMessage((m) => {
      if (m && m.type === 'key' && this.session) {
        this.session.customRequest('hc11lab/key', { key: m.key, action: 'tap' })
          .then(() => this.refresh(), (e) => vscode.window.showWarningMessage(String(e.message || e)));
      }
    });
    this.panel.onDidDispose(() => { this.panel = null; });
    this.refresh();
  }

  /** Asks the adapter for the LCD and draws it. */
  refresh() {
    const session = this.session;
    if (!session || this.asking) return;
    this.asking = true;
    session.customRequest('hc11lab/lcd').then((body) => {
      this.asking = false;
      if (body.hasLcd && !this.panel && this.autoShow) {
        this.autoShow = false;
        this.show();
      }
      if (this.panel) this.panel.webview.postMessage({ type: 'lcd', body });
    }, () => { this.asking = false; });
  }

  /** A message between the editor and the adapter of `session`. */
  observe(session, message) {
    const next = board.runStateAfter(message);
    if (!next) return;
    this.session = session;
    this.state = next;
    if (next === 'running' && !this.timer) {
      this.timer = setInterval(() => this.refresh(), board.POLL_MS);
    } else if (next !== 'running' && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    if (next !== 'ended') this.refresh();
  }

  ended(session) {
    if (this.session === session) {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      this.session = null;
    }
  }
}

function activate(context) {
  const panel = new BoardPanel();
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('hc11lab', {
      createDebugAdapterDescriptor() {
        const command = vscode.workspace.getConfiguration('hc11lab').get('path') || 'hc11lab';
        return new vscode.DebugAdapterExecutable(command, ['dap']);
      },
    }),
    vscode.debug.registerDebugConfigurationProvider('hc11lab', {
      resolveDebugConfiguration(folder, config) {
        // F5 with no launch.json: debug the file in the editor.
        if (!config.type && !config.request && !config.name) {
          const editor = vscode.window.activeTextEditor;
          if (!editor) return config;
          config.type = 'hc11lab';
          config.request = 'launch';
          config.name = 'hc11lab: debug this file';
          config.program = editor.document.fileName;
        }
        if (!config.cwd && folder) config.cwd = folder.uri.fsPath;
        return config;
      },
    }),
    vscode.debug.registerDebugAdapterTrackerFactory('hc11lab', {
      createDebugAdapterTracker(session) {
        panel.autoShow = vscode.workspace.getConfiguration('hc11lab').get('showBoard') !== false;
        return {
          onDidSendMessage: (m) => panel.observe(session, m),
          onExit: () => panel.ended(session),
        };
      },
    }),
    vscode.debug.onDidTerminateDebugSession((s) => panel.ended(s)),
    vscode.commands.registerCommand('hc11lab.showBoard', () => {
      const s = vscode.debug.activeDebugSession;
      if (s && s.type === 'hc11lab') panel.session = s;
      panel.show();
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
