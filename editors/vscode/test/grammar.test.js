// The TextMate grammars: their expressions compile and mark what they
// should on lines of the course's sources. (TextMate runs Oniguruma; the
// patterns keep to what JavaScript's RegExp also reads, with a leading
// (?i) turned into the `i` flag.)
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

function load(name) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'syntaxes', name), 'utf8'));
}

function regex(src) {
  return src.startsWith('(?i)') ? new RegExp(src.slice(4), 'i') : new RegExp(src);
}

function allPatterns(grammar) {
  const out = [];
  const walk = (p) => {
    if (!p || typeof p !== 'object') return;
    for (const key of ['match', 'begin', 'end']) if (typeof p[key] === 'string') out.push(p[key]);
    for (const v of Object.values(p)) if (typeof v === 'object') walk(v);
  };
  walk(grammar);
  return out;
}

for (const file of ['hc11.tmLanguage.json', 'hc11-as11.tmLanguage.json']) {
  test(`${file}: every expression compiles`, () => {
    const g = load(file);
    const patterns = allPatterns(g);
    assert.ok(patterns.length > 10);
    for (const p of patterns) assert.doesNotThrow(() => regex(p), p);
  });
}

test('course grammar: labels, mnemonics, directives, numbers, comments', () => {
  const r = load('hc11.tmLanguage.json').repository;
  assert.deepStrictEqual('drawCell'.match(regex(r.label.match))[1], 'drawCell');
  assert.ok(regex(r.mnemonic.match).test('        LDAA    PIO_B'));
  assert.ok(!regex(r.mnemonic.match).test('ldaaX'));
  assert.ok(regex(r.directive.match).test('board   ds.b    boardSize'));
  assert.ok(regex(r.directive.match).test('        switch RomSection'));
  assert.ok(regex(r['comment-line'].match).test('* a comment line'));
  assert.strictEqual(' ldaa #1 ; x'.match(regex(r.comment.match))[0], '; x');
  const kinds = r.operand.patterns.map((p) => [p.name, p.match && regex(p.match)]);
  const first = (text) => kinds.find(([, re]) => re && re.test(text))[0];
  assert.strictEqual(first('$C0'), 'constant.numeric.hex.hc11');
  assert.strictEqual(first('%1010'), 'constant.numeric.binary.hc11');
  assert.strictEqual(first('#'), 'keyword.operator.immediate.hc11');
});

test('AS11 grammar: what follows the operand field is a comment', () => {
  const r = load('hc11-as11.tmLanguage.json').repository;
  const st = ' LDAA $10 load the flag'.match(regex(r.statement.match));
  assert.strictEqual(st[1], 'LDAA');
  assert.strictEqual(st[3], '$10');
  assert.strictEqual(st[4].trim(), 'load the flag');
  const inh = ' INX next entry'.match(regex(r.inherent.match));
  assert.strictEqual(inh[1], 'INX');
  assert.strictEqual(inh[2].trim(), 'next entry');
  const fcc = ' FCC /A B/ the text'.match(regex(r.fcc.match));
  assert.strictEqual(fcc[3], 'A B');
  assert.strictEqual(fcc[5].trim(), 'the text');
});
