// The web page in a real browser: headless Chromium (WebGL on SwiftShader)
// opens the built page (target/web) from a server of its own and checks
// what a student does there:
// - the LCD drawn on the canvas after `?autorun=keys=right,drop` equals
//   `hc11lab run --keys right,drop --lcd-text` (read from the screenshot);
// - the same picture when the keys are pressed on the real keyboard;
// - a lesson step answered (a wrong answer, then the right one) moves on,
//   and the progress is there again after a reload;
// - exercise E1 is started, Checked (points from the grader in the page)
//   and handed in (the zip is downloaded); a solution taken from the
//   computer into the copy gets full points;
// - files dropped on the page are opened (sources, a zip, an .s19, an
//   ELF), and so are files and a folder picked in the browser's dialogs;
// - a full browser storage is said, not a silent loss;
// - the settings are kept across a reload.
// With --measure it reports the figures of docs/web.md instead (first
// frame, speeds, frame times); times are reported, never asserted.
//
// Usage: node tests/web/page.cjs --web target/web --lcd EXPECTED.txt [--measure]
// (needs playwright-core on NODE_PATH and Chromium at $CHROMIUM or
// /usr/bin/chromium; .ci/web sets both up).
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const zlib = require('zlib');
const { chromium } = require('playwright-core');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const webDir = path.resolve(arg('--web', 'target/web'));
const lcdFile = arg('--lcd');
const measure = process.argv.includes('--measure');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
};

// A static server for the page's folder, counting what it sends and to
// whom (every request must be for this folder: nothing from other hosts).
function serve(dir) {
  const served = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end();
      return;
    }
    const body = fs.readFileSync(file);
    served.push([url.pathname, body.length]);
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, served, port: server.address().port })));
}

// A PNG screenshot as RGBA rows (8-bit, not interlaced, as Chromium writes them).
function decodePng(buf) {
  let width = 0, height = 0, type = 0;
  const idat = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    const kind = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('PNG: only 8-bit, not interlaced');
      type = data[9];
    } else if (kind === 'IDAT') {
      idat.push(data);
    }
    at += 12 + len;
  }
  const channels = { 2: 3, 6: 4 }[type];
  if (!channels) throw new Error(`PNG colour type ${type}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = (line[i] + p) & 255;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 3; k++) out[(y * width + x) * 4 + k] = line[x * channels + k];
      out[(y * width + x) * 4 + 3] = channels === 4 ? line[x * channels + 3] : 255;
    }
    prev = line;
  }
  return { width, height, data: out };
}

// The autorun report's `key value` lines.
function parseReport(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(' ');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

// The 128x64 LCD as `run --lcd-text` prints it, read from a screenshot at
// the rectangle the report names (each pixel's centre; ink is dark).
function readLcd(png, report) {
  const [x, y, w, h] = report.lcd_rect.split(' ').map(Number);
  const ppp = Number(report.pixels_per_point);
  const rows = [];
  for (let j = 0; j < 64; j++) {
    let row = '';
    for (let i = 0; i < 128; i++) {
      const px = Math.floor((x + (i + 0.5) * (w / 128)) * ppp);
      const py = Math.floor((y + (j + 0.5) * (h / 64)) * ppp);
      const o = (py * png.width + px) * 4;
      const lum = 0.3 * png.data[o] + 0.59 * png.data[o + 1] + 0.11 * png.data[o + 2];
      row += lum < 110 ? '#' : '.';
    }
    rows.push(row);
  }
  return rows;
}

function compareLcd(what, got, want) {
  const bad = got.map((r, j) => (r === want[j] ? -1 : j)).filter((j) => j >= 0);
  if (bad.length) {
    const j = bad[0];
    throw new Error(`${what}: ${bad.length} of 64 LCD rows differ; first row ${j}:\n got  ${got[j]}\n want ${want[j]}`);
  }
  console.log(`ok   ${what}: the LCD on the canvas equals run --lcd-text (128x64)`);
}

async function main() {
  const { server, served, port } = await serve(webDir);
  const base = `http://127.0.0.1:${port}/index.html`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader',
      '--use-angle=swiftshader', '--disable-gpu-vsync-throttling'],
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, acceptDownloads: true,
  });
  const page = await context.newPage();
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  const outside = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`http://127.0.0.1:${port}/`) && !r.url().startsWith('blob:') &&
        !r.url().startsWith('data:')) outside.push(r.url());
  });

  // Waits for the next console line that starts with `prefix` (from `from` on).
  async function waitConsole(prefix, from, seconds) {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const hit = consoleLines.slice(from).find((l) => l.startsWith(prefix));
      if (hit) return hit;
      if (Date.now() > until) {
        throw new Error(`no "${prefix}" in the console after ${seconds} s; console:\n${consoleLines.join('\n')}`);
      }
      await page.waitForTimeout(100);
    }
  }
  async function autorun(query, seconds = 180) {
    const from = consoleLines.length;
    await page.goto(`${base}?autorun=${encodeURIComponent(query)}`);
    const done = await waitConsole('hc11lab autorun: done', from, seconds);
    return { report: parseReport(done), from };
  }
  // The browser's file chooser, opened by `act` (the user's clicks or
  // keys). The page opens it in the frame after the input, which may come
  // late on a loaded machine: the user's action is repeated (as a user
  // clicks again) up to three times before the step fails, and each miss
  // is reported with what the console said meanwhile.
  async function chooserFrom(what, act) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const from = consoleLines.length;
      const chooser = page.waitForEvent('filechooser', { timeout: 10000 }).catch(() => null);
      await act();
      const fc = await chooser;
      if (fc) return fc;
      const said = consoleLines.slice(from).join(' | ').slice(0, 400);
      console.log(`note ${what}: no file chooser within 10 s (try ${attempt}); console: ${said}`);
    }
    throw new Error(`${what}: no file chooser after three tries`);
  }
  let handedIn = null;
  const want = lcdFile ? fs.readFileSync(lcdFile, 'utf8').split('\n').slice(0, 64) : null;

  if (measure) {
    await measureAll(page, autorun, waitConsole, consoleLines, served);
  } else {
    // 1. The scripted keys: the canvas shows what the command line computes.
    {
      const { report, from } = await autorun('keys=right,drop');
      if (!/^key script done/.test(report.stop)) throw new Error(`autorun stop ${report.stop}`);
      const first = await waitConsole('hc11lab: first frame', from, 10);
      console.log(`ok   page loaded and ran the key script (${first.replace('hc11lab: ', '')})`);
      await page.waitForTimeout(300);
      compareLcd('scripted keys right,drop', readLcd(decodePng(await page.screenshot()), report), want);
    }
    // 2. The same with the real keyboard while the game runs in real time.
    {
      const { report } = await autorun('run=realtime;frames=2');
      await page.focus('#hc11lab_canvas');
      await page.keyboard.press('ArrowRight', { delay: 60 });
      await page.waitForTimeout(700);
      await page.keyboard.press('Space', { delay: 60 });
      await page.waitForTimeout(2000);
      compareLcd('keyboard Right, Space', readLcd(decodePng(await page.screenshot()), report), want);
    }
    // 3. A lesson step: a wrong answer keeps it, the right one moves on.
    {
      const { report } = await autorun('data=/data;lesson=03-buffer;answer=335;answer=336', 60);
      const line = report.lesson || '';
      if (!/^03-buffer step 2 of \d+$/.test(line)) throw new Error(`lesson: "${line}"`);
      console.log(`ok   lesson 03-buffer: step 1 answered in the page, now ${line.replace('03-buffer ', '')}`);
      const again = (await autorun('data=/data;lesson=03-buffer', 60)).report.lesson || '';
      if (again !== line) throw new Error(`after a reload the lesson is at "${again}", not "${line}"`);
      console.log('ok   the lesson progress is there again after a reload');
    }
    // 4. Exercise E1: Start, Check, Hand in (downloaded).
    {
      const download = page.waitForEvent('download', { timeout: 240000 });
      const { report } = await autorun('data=/data;check=e1-draw;handin=e1-draw', 240);
      const m = /^e1-draw score ([\d.]+) of ([\d.]+) ms (\d+)$/.exec(report.check || '');
      if (!m) throw new Error(`check: "${report.check}"`);
      const [score, max] = [Number(m[1]), Number(m[2])];
      // The starter is the unchanged game: it assembles and plays, but shows no draw.
      if (!(max > 0 && score > 0 && score < max)) throw new Error(`check score ${score} of ${max}`);
      console.log(`ok   exercise e1-draw checked in the page: ${score} of ${max} points (${m[3]} ms)`);
      const d = await download;
      handedIn = await d.path();
      const zip = fs.readFileSync(handedIn);
      if (d.suggestedFilename() !== 'e1-draw.zip' || zip.readUInt32LE(0) !== 0x04034b50 ||
          !zip.includes(Buffer.from('Viergewinnt.asm'))) {
        throw new Error(`hand-in download ${d.suggestedFilename()} (${zip.length} bytes) is not the zip`);
      }
      console.log(`ok   hand in downloaded ${d.suggestedFilename()} (${zip.length} bytes, a zip with Viergewinnt.asm)`);
      const keys = await page.evaluate(() => Object.keys(localStorage));
      if (!keys.includes('hc11lab.fs:/data/exercises/e1-draw/Viergewinnt.asm')) {
        throw new Error(`the copy is not in the browser's storage: ${keys.join(', ')}`);
      }
      console.log('ok   the exercise copy is kept in the browser\'s storage');
    }
    // 4b. The student's own work reaches the copy: the solution's files, as
    // if edited on the computer, come in through Course > Exercises > Take
    // files from my computer… (the browser's chooser answered by the test);
    // a Check in a page opened again grades it with full points.
    {
      await autorun('data=/data;check=e1-draw', 240);
      // Places in the 1280x800 window (egui's layout, English): the Course
      // tab, its Exercises tab, the button beside Check.
      const from = consoleLines.length;
      const chooser = await chooserFrom('Take files from my computer…', async () => {
        await page.mouse.click(1097, 62);
        await page.waitForTimeout(400);
        await page.mouse.click(1090, 94);
        await page.waitForTimeout(400);
        await page.mouse.click(1083, 191);
      });
      // The files the solution changed, as a student picks what they edited.
      const edited = ['Input.inc', 'LCDutils.inc', 'Logic.inc', 'Viergewinnt.asm'];
      await chooser.setFiles(edited.map((f) => path.resolve('tests/solutions/e1-draw', f)));
      const line = await waitConsole('hc11lab: put', from, 60);
      if (line !== `hc11lab: put ${edited.join(', ')} into /data/exercises/e1-draw and opened ` +
          '/data/exercises/e1-draw/Viergewinnt.asm (loaded)') {
        throw new Error(`Take files from my computer…: ${line}`);
      }
      console.log(`ok   Take files from my computer…: ${line.replace('hc11lab: ', '')}`);
      const { report } = await autorun('data=/data;check=e1-draw', 240);
      const m = /^e1-draw score ([\d.]+) of ([\d.]+) ms \d+$/.exec(report.check || '');
      if (!m || Number(m[1]) !== Number(m[2])) throw new Error(`check of the solution: "${report.check}"`);
      console.log(`ok   the copy with the solution, checked in a page opened again: ${m[1]} of ${m[2]} points`);
    }
    // 5. Files dropped on the page open: the program's sources, the zip
    // handed in above, an S-record file and an ELF.
    {
      await autorun('frames=1', 60);
      const sources = fs.readdirSync('firmware').filter((n) => /\.(asm|inc)$/i.test(n));
      const drops = [
        ['the firmware\'s sources', sources.map((f) => [f, path.join('firmware', f)]),
          /^\/files\/Viergewinnt$/],
        ['the handed-in zip', [['e1-draw.zip', handedIn]], /^\/files\/e1-draw(\/Viergewinnt\.asm)?$/],
        ['an S-record file', [['reference.s19', 'lessons/e1-draw/reference/reference.s19']],
          /^\/files\/reference\/reference\.s19$/],
        ['an ELF', [['loop.elf', 'tests/data/gnu/loop.elf']], /^\/files\/loop\/loop\.elf$/],
      ];
      for (const [what, files, opens] of drops) {
        const from = consoleLines.length;
        const contents = files.map(([name, file]) => [name, fs.readFileSync(file).toString('base64')]);
        await page.evaluate((contents) => {
          const dt = new DataTransfer();
          for (const [name, b64] of contents) {
            dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
          }
          const canvas = document.getElementById('hc11lab_canvas');
          canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, contents);
        const line = await waitConsole('hc11lab: opened', from, 60);
        const m = /^hc11lab: opened (.*) \(loaded\)$/.exec(line);
        if (!m || !opens.test(m[1])) throw new Error(`dropped ${what}: ${line}`);
        console.log(`ok   dropped ${what} (${files.length} files): ${line.replace('hc11lab: ', '')}`);
      }
    }
    // 5b. The file dialogs as a user opens them: Ctrl+O picks files, File >
    // Open folder… a folder (the browser's chooser answered by the test).
    {
      await autorun('frames=1', 60);
      await page.focus('#hc11lab_canvas');
      const sources = fs.readdirSync('firmware').filter((n) => /\.(asm|inc)$/i.test(n))
        .map((f) => path.resolve('firmware', f));
      let from = consoleLines.length;
      const picker = await chooserFrom('Ctrl+O', async () => {
        await page.focus('#hc11lab_canvas');
        await page.keyboard.press('Control+O');
      });
      await picker.setFiles(sources);
      let line = await waitConsole('hc11lab: opened', from, 60);
      if (line !== 'hc11lab: opened /files/Viergewinnt (loaded)') {
        throw new Error(`Ctrl+O: ${line}`);
      }
      console.log(`ok   Ctrl+O, ${sources.length} files picked: ${line.replace('hc11lab: ', '')}`);
      // The menu's place in the 1280x800 window (egui's layout, English).
      const folder = fs.mkdtempSync(path.join(require('os').tmpdir(), 'hc11lab-web-'));
      const named = path.join(folder, 'Game');
      fs.mkdirSync(named);
      for (const f of sources) fs.copyFileSync(f, path.join(named, path.basename(f)));
      from = consoleLines.length;
      const fc = await chooserFrom('File > Open folder…', async () => {
        await page.mouse.click(20, 11);
        await page.waitForTimeout(400);
        await page.mouse.click(60, 162);
      });
      if (!fc.isMultiple() && !(await fc.element().evaluate((e) => e.hasAttribute('webkitdirectory')))) {
        throw new Error('File > Open folder… did not ask for a folder');
      }
      await fc.setFiles(named);
      line = await waitConsole('hc11lab: opened', from, 60);
      fs.rmSync(folder, { recursive: true, force: true });
      if (line !== 'hc11lab: opened /files/Game (loaded)') {
        throw new Error(`File > Open folder…: ${line}`);
      }
      console.log(`ok   File > Open folder…, a folder picked: ${line.replace('hc11lab: ', '')}`);
    }
    // 6. A full storage is said.
    {
      const filled = await page.evaluate(() => {
        const chunk = 'x'.repeat(64 * 1024);
        let n = 0;
        try { for (;;) { localStorage.setItem(`filler.${n}`, chunk); n++; } } catch (e) { return n; }
      });
      const { report } = await autorun('data=/data;check=e2-pulls', 60);
      const line = report.check || '';
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('filler.'))
        .forEach((k) => localStorage.removeItem(k)));
      if (!/storage for this page is full/.test(line)) throw new Error(`full storage: check "${line}"`);
      console.log(`ok   a full storage (${filled} x 64K filler) is said: ${line.slice(0, 110)}…`);
    }
    // 7. The settings are kept: View > Light theme chosen in the page is
    // saved without the page being closed (a browser may close it without
    // a word), and a new page of the site opens in the light theme.
    {
      const started = consoleLines.length;
      await page.goto(base);
      await waitConsole('hc11lab: first frame', started, 60);
      const statusLum = async (p) => {
        const png = decodePng(await p.screenshot());
        const o = ((png.height - 5) * png.width + 640) * 4;
        return 0.3 * png.data[o] + 0.59 * png.data[o + 1] + 0.11 * png.data[o + 2];
      };
      if (await statusLum(page) >= 160) throw new Error('the page did not start in the dark theme');
      // The menu's places in the 1280x800 window (egui's layout, English).
      await page.mouse.click(148, 11);
      await page.waitForTimeout(400);
      await page.mouse.click(158, 140);
      await page.waitForTimeout(300);
      await page.keyboard.press('Escape');
      let saved = null;
      for (let i = 0; i < 300 && !/theme:\s*Light/.test(saved || ''); i++) {
        await page.waitForTimeout(100);
        saved = await page.evaluate(() => localStorage.getItem('hc11lab.settings'));
      }
      if (!/theme:\s*Light/.test(saved || '')) {
        throw new Error(`View > Light theme was not saved within 30 s: ${saved}`);
      }
      const lit = await statusLum(page);
      if (lit < 160) throw new Error(`View > Light theme: the status bar is still dark (${lit.toFixed(0)})`);
      await page.close();
      const again = await context.newPage();
      const lines = [];
      again.on('console', (m) => lines.push(m.text()));
      await again.goto(base);
      for (let i = 0; i < 600 && !lines.some((l) => l.startsWith('hc11lab: first frame')); i++) {
        await again.waitForTimeout(100);
      }
      await again.waitForTimeout(500);
      const lum = await statusLum(again);
      await again.evaluate(() => localStorage.removeItem('hc11lab.settings'));
      if (lum < 160) throw new Error(`the page opened again is dark (${lum.toFixed(0)}): the settings were not kept`);
      console.log('ok   View > Light theme is kept in the browser\'s storage: the page opened again is light');
    }
    if (outside.length) throw new Error(`requests to other hosts: ${outside.join(', ')}`);
    console.log(`ok   nothing loaded from other hosts (${served.length} requests to the page's own server)`);
  }
  await browser.close();
  server.close();
}

// The figures of docs/web.md.
async function measureAll(page, autorun, waitConsole, consoleLines, served) {
  const firsts = [];
  for (let i = 0; i < 3; i++) {
    const { from } = await autorun('frames=1', 60);
    firsts.push(Number(/(\d+) ms/.exec(await waitConsole('hc11lab: first frame', from, 10))[1]));
  }
  console.log(`first_frame_ms ${firsts.join(' ')} (the first visit, then reloads)`);
  for (const speed of ['realtime', 'max', 'max;links=off']) {
    const { report } = await autorun(`run=${speed};frames=300`, 120);
    console.log(`${speed}: speed_mhz ${report.speed_mhz} (real time is 2), app frame_ms mean ${report.frame_ms_mean} p95 ${report.frame_ms_p95}, eframe cpu total_ms mean ${report.total_ms_mean} p95 ${report.total_ms_p95}, frame-to-frame whole_ms mean ${report.whole_ms_mean} p95 ${report.whole_ms_p95}`);
  }
  for (let i = 0; i < 3; i++) {
    const { report } = await autorun('data=/data;check=e1-draw', 240);
    console.log(`check ${report.check}`);
  }
}

main().catch((e) => {
  console.error(`FAIL ${e.stack || e}`);
  process.exit(1);
});
