// The names the web components show: initials by grapheme, the 64-character limit. Run: node --test Tests/Web/
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  NAME_LIMIT, checkedName, graphemes, initials, limitedName,
} from '../../Web/sdk/components/names.js';
import { othersSentence, tileLabel } from '../../Web/sdk/components/texts.js';

test('initials: the first grapheme of the first and the last word, uppercased', () => {
  assert.equal(initials('Ada Lovelace'), 'AL');
  assert.equal(initials('ada byron lovelace'), 'AL');
  assert.equal(initials('  grace  '), 'G');
  assert.equal(initials('élodie ünal'), 'ÉÜ');
});

test('initials: "?" for no name', () => {
  for (const name of ['', '   ', null, undefined]) assert.equal(initials(name), '?');
});

test('initials: an emoji is one grapheme, never half a surrogate pair', () => {
  assert.equal(initials('🦊 Fox'), '🦊F');
  assert.equal(initials('👩‍💻 Dev'), '👩‍💻D');
  assert.equal(initials('Ana 🇵🇹'), 'A🇵🇹');
  assert.equal(initials('e\u0301mile'), 'E\u0301');
  for (const s of [initials('🦊 Fox'), initials('x 😀')]) assert.ok(s.isWellFormed());
});

test('checkedName: trimmed, at most 64 characters, says when it cut', () => {
  assert.equal(NAME_LIMIT, 64);
  assert.deepEqual(checkedName('  Ada  '), { name: 'Ada', cut: false });
  assert.deepEqual(checkedName('a'.repeat(64)), { name: 'a'.repeat(64), cut: false });
  assert.deepEqual(checkedName('a'.repeat(65)), { name: 'a'.repeat(64), cut: true });
  assert.deepEqual(checkedName(` ${'b'.repeat(64)} `), { name: 'b'.repeat(64), cut: false });
});

test('checkedName: counts Unicode scalars and cuts at a grapheme boundary', () => {
  const foxes = '🦊'.repeat(70);
  const { name, cut } = checkedName(foxes);
  assert.ok(cut);
  assert.equal(Array.from(name).length, 64);
  assert.ok(name.isWellFormed());
  // A family emoji (7 scalars) that would cross the limit is left out whole.
  const family = '👨‍👩‍👧‍👦';
  const cutFamily = checkedName('a'.repeat(60) + family).name;
  assert.equal(cutFamily, 'a'.repeat(60));
  assert.ok(Array.from(cutFamily).length <= 64);
});

test('limitedName keeps a trailing space (a field being typed in)', () => {
  assert.deepEqual(limitedName('Ada '), { name: 'Ada ', cut: false });
  assert.deepEqual(graphemes('a🦊'), ['a', '🦊']);
});

test('othersSentence and tileLabel', () => {
  assert.equal(othersSentence(0), 'Nobody else is in the call yet.');
  assert.equal(othersSentence(1), 'There is 1 more person in the call.');
  assert.equal(othersSentence(3), 'There are 3 more people in the call.');
  assert.equal(tileLabel({ name: 'Ada Lovelace', self: true, speaking: true, audio: false, video: true }),
    'Ada Lovelace (you), speaking, microphone off');
});
