// The client's pure parts under node's own test runner: `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Backoff } from '../../Web/sdk/backoff.js';
import { BLOCK, Downsampler, lowPass, toInt16 } from '../../Web/sdk/downsampler.js';
import { meterValueText } from '../../Web/sdk/components/texts.js';
import { clientOptions, roleOf } from '../../Web/sdk/options.js';
import { Roster } from '../../Web/sdk/presence.js';
import { closeMeaning, decode, ProtocolError } from '../../Web/sdk/protocol.js';

test('backoff: 1 s doubling to 10 s, and back to 1 s once connected', () => {
  const b = new Backoff();
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => b.next()), [1000, 2000, 4000, 8000, 10000, 10000]);
  b.reset();
  assert.equal(b.next(), 1000);
  assert.throws(() => new Backoff({ first: 0 }), RangeError);
  assert.throws(() => new Backoff({ first: 5000, max: 1000 }), RangeError);
});

const ada = { id: 'a', name: 'Ada', audio: true, video: false, speaking: false };
const bob = { id: 'b', name: 'Bob', audio: true, video: true, speaking: false };

test('the version rule: a snapshot whole, the next version applied, a seen one dropped, a gap resyncs', () => {
  const r = new Roster();
  assert.equal(r.take({ type: 'joined', version: 1, participant: ada }), 'resync', 'nothing before a snapshot');
  assert.equal(r.take({ type: 'presence', version: 4, participants: [ada] }), 'applied');
  assert.equal(r.take({ type: 'joined', version: 5, participant: bob }), 'applied');
  assert.deepEqual([...r.participants.keys()], ['a', 'b']);
  assert.equal(r.take({ type: 'updated', version: 5, participant: { ...bob, speaking: true } }), 'dropped');
  assert.equal(r.participants.get('b').speaking, false);
  assert.equal(r.take({ type: 'updated', version: 6, participant: { ...bob, speaking: true } }), 'applied');
  assert.equal(r.participants.get('b').speaking, true);
  assert.equal(r.take({ type: 'left', version: 8, id: 'a' }), 'resync', 'version 7 was missed');
  assert.ok(r.participants.has('a'), 'a gap changes nothing until the snapshot');
  assert.equal(r.take({ type: 'left', version: 7, id: 'a' }), 'applied');
  assert.deepEqual(r.others('b'), []);
  r.clear();
  assert.equal(r.version, null);
  assert.equal(r.participants.size, 0);
});

test('decode: each type checked and normalised; garbage is a ProtocolError, an unknown type passes', () => {
  const m = decode('{"type":"microphone","on":true,"level_db":-23.5,"display":0.53,"speaking":true,'
    + '"not_working":null,"warnings":["Your microphone is noisy.", 3]}');
  assert.deepEqual(m, { type: 'microphone', on: true, levelDb: -23.5, display: 0.53, speaking: true, notWorking: null,
    warnings: ['Your microphone is noisy.'] });
  assert.equal(decode('{"type":"microphone","on":false,"level_db":-90,"display":0.4}').display, 0, 'off shows 0');
  const p = decode('{"type":"presence","version":3,"participants":[{"id":"x","name":"X","audio":1}]}');
  assert.deepEqual(p.participants, [{ id: 'x', name: 'X', audio: false, video: false, speaking: false }]);
  assert.deepEqual(decode('{"type":"left","version":4,"id":"x"}'), { type: 'left', version: 4, id: 'x' });
  assert.equal(decode('{"type":"welcome","id":"me","capabilities":["send-audio"]}').name, null);
  assert.deepEqual(decode('{"type":"session.created","session":{}}'), { type: 'session.created', session: {} });
  for (const bad of ['not json', '[]', '{"no":"type"}', '{"type":"joined","version":2}',
    '{"type":"presence","participants":[]}', '{"type":"left","version":1}', '{"type":"signal","from":"a"}',
    '{"type":"joined","version":2,"participant":{"id":3}}']) {
    assert.throws(() => decode(bad), ProtocolError, bad);
  }
});

test('close codes: 44xx are refusals said once with the reason; anything else is retried', () => {
  assert.deepEqual(closeMeaning(4401, 'the join token has expired'), { refused: true,
    message: 'This invitation cannot be used: the join token has expired. Ask for a new link.' });
  assert.deepEqual(closeMeaning(4403, 'origin http://x is not allowed'),
    { refused: true, message: 'The server refused this page: origin http://x is not allowed.' });
  for (const code of [1000, 1001, 1006, 1008, 1009, 1011]) assert.equal(closeMeaning(code, '').refused, false);
  assert.equal(closeMeaning(1006, '').message, 'Disconnected from the server.');
});

function run(rate, seconds, signal) {
  const blocks = [];
  const d = new Downsampler(rate, (b) => blocks.push(Int16Array.from(b)));
  const total = Math.round(rate * seconds);
  for (let start = 0; start < total; start += 128) {
    const n = Math.min(128, total - start), ch = new Float32Array(n);
    for (let i = 0; i < n; i++) ch[i] = signal((start + i) / rate);
    d.push([ch, ch]);
  }
  return blocks;
}

const rms = (blocks, skip = 2) => {
  let s = 0, n = 0;
  for (const b of blocks.slice(skip)) for (const x of b) { s += (x / 32767) ** 2; n++; }
  return Math.sqrt(s / n);
};

test('the downsampler: 20 ms blocks of 16 kHz from any rate, a passband tone kept, above 8 kHz removed', () => {
  for (const rate of [16000, 44100, 48000, 96000]) {
    const blocks = run(rate, 1, (t) => 0.5 * Math.sin(2 * Math.PI * 1000 * t));
    assert.ok(blocks.every((b) => b.length === BLOCK));
    assert.ok(Math.abs(blocks.length - 50) <= 1, `${rate} Hz: ${blocks.length} blocks a second`);
    assert.ok(Math.abs(rms(blocks) - 0.5 / Math.SQRT2) < 0.01, `${rate} Hz: a 1 kHz tone keeps its level`);
  }
  // 12 kHz at 48 kHz would alias to 4 kHz without the filter.
  assert.ok(rms(run(48000, 1, (t) => 0.5 * Math.sin(2 * Math.PI * 12000 * t))) < 0.005);
  const h = lowPass(48000);
  assert.equal(h.length, 63);
  assert.ok(Math.abs(h.reduce((a, b) => a + b, 0) - 1) < 1e-6, 'a gain of 1 at DC');
  assert.deepEqual([toInt16(2), toInt16(-2), toInt16(0.5)], [32767, -32768, 16384]);
  assert.throws(() => new Downsampler(0, () => {}), RangeError);
});

test('opening a device: the chosen one, the default when it is gone, a refusal, none at all', async () => {
  const { openDevice, openMicrophone } = await import('../../Web/sdk/microphone.js');
  const failing = (name) => Object.assign(new Error(name), { name });
  const asked = [];
  const media = (present) => ({
    async getUserMedia(c) {
      asked.push(c);
      const id = c.audio?.deviceId?.exact ?? c.video?.deviceId?.exact;
      if (present === 'denied') throw failing('NotAllowedError');
      if (present === 'none') throw failing('NotFoundError');
      if (id && id !== present) throw failing('OverconstrainedError');
      return { id: id || 'default' };
    },
  });
  assert.deepEqual(await openMicrophone({ deviceId: 'usb' }, media('usb')),
    { stream: { id: 'usb' }, fellBack: false, denied: false, missing: false, unavailable: false, error: '' });
  assert.deepEqual(asked.at(-1).audio, { echoCancellation: true, noiseSuppression: true, autoGainControl: true,
    deviceId: { exact: 'usb' } });
  assert.deepEqual(await openDevice('video', {}, 'gone', media('usb')),
    { stream: { id: 'default' }, fellBack: true, denied: false, missing: false, unavailable: false, error: '' });
  assert.equal((await openMicrophone({ processing: false }, media('denied'))).denied, true);
  assert.equal(asked.at(-1).audio.noiseSuppression, false);
  assert.equal((await openMicrophone({}, media('none'))).missing, true);
  const held = await openMicrophone({}, { getUserMedia: async () => { throw failing('NotReadableError'); } });
  assert.deepEqual([held.stream, held.unavailable, held.error], [null, true, 'NotReadableError: NotReadableError']);
});

test('the device opener: the latest choice wins, an overtaken or cancelled open stops what it opened', async () => {
  const { DeviceOpener } = await import('../../Web/sdk/microphone.js');
  const stopped = [];
  const pending = [];
  globalThis.navigator ??= {};
  const saved = Object.getOwnPropertyDescriptor(globalThis.navigator, 'mediaDevices');
  Object.defineProperty(globalThis.navigator, 'mediaDevices', { configurable: true, value: {
    getUserMedia: (c) => new Promise((resolve) => pending.push(() => resolve({
      id: c.audio?.deviceId?.exact ?? 'default',
      getTracks: () => [{ stop: () => stopped.push(c.audio?.deviceId?.exact) }],
    }))),
  } });
  try {
    const opener = new DeviceOpener();
    const first = opener.open('audio', {}, 'usb');
    const second = opener.open('audio', {}, 'hdmi');
    pending.splice(0).forEach((answer) => answer());
    assert.equal(await first, null);
    assert.equal((await second).stream.id, 'hdmi');
    assert.deepEqual(stopped, ['usb']);
    const third = opener.open('audio', {}, 'jack');
    opener.cancel();
    pending.splice(0).forEach((answer) => answer());
    assert.equal(await third, null);
    assert.deepEqual(stopped, ['usb', 'jack']);
  } finally {
    if (saved) Object.defineProperty(globalThis.navigator, 'mediaDevices', saved);
    else delete globalThis.navigator.mediaDevices;
  }
});

test('the meter tells a screen reader the level in words, not a bare fraction', () => {
  assert.equal(meterValueText({ on: true, display: 0.463, levelDb: -26.8 }), '46 %, -27 dBFS');
  assert.equal(meterValueText({ on: true, display: 0, levelDb: -160 }), '0 %, silence');
  assert.equal(meterValueText({ on: false, display: 0.5, levelDb: -20 }), 'Microphone off');
});

test('the client\'s options: a call analysed on the device by default, /v1/vad on the server, each bad one named',
  () => {
    const origin = 'https://sdk.example';
    const call = clientOptions({ call: 'standup' }, origin);
    assert.equal(call.endpoint, 'call');
    assert.equal(call.analysis, 'device');
    assert.equal(call.server.href, 'https://sdk.example/');
    assert.deepEqual(call.choice, { deviceId: '', processing: true });
    const vad = clientOptions({ server: 'http://127.0.0.1:8080', microphone: { processing: false } }, origin);
    assert.equal(vad.endpoint, 'vad');
    assert.equal(vad.analysis, 'server');
    assert.equal(vad.choice.processing, false);
    assert.equal(clientOptions({ endpoint: 'none' }, origin).server, null);
    assert.equal(clientOptions({ call: 'c', capture: { start() {} } }, origin).analysis, 'server',
      'a capture without the kernel\'s commands is a server capture');
    for (const [options, code] of [
      [{ endpoint: 'sip' }, 'bad-option'], [{ call: 'a b' }, 'bad-call'], [{ endpoint: 'call' }, 'bad-call'],
      [{ call: 'c', token: 7 }, 'bad-option'], [{ call: 'c', analysis: 'cloud' }, 'bad-option'],
      [{ analysis: 'device' }, 'bad-option'], [{ endpoint: 'none', analysis: 'server' }, 'bad-option'],
      [{ endpoint: 'none', capture: { start() {} } }, 'bad-option'],
    ]) {
      assert.throws(() => clientOptions(options, origin), (e) => e.code === code, JSON.stringify(options));
    }
  });

test('an invitation\'s role, read without checking it; none from garbage', () => {
  const payload = btoa(JSON.stringify({ role: 'listener' })).replace(/\+/g, '-').replace(/\//g, '_');
  assert.equal(roleOf(`x.${payload}.y`), 'listener');
  assert.equal(roleOf('not a token'), null);
  assert.equal(roleOf(null), null);
});
