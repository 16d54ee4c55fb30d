// The client that decides on the device: MicCheck's kernel (miccheck.wasm) gives the meter, speaking and the
// notices; the server gets the page's statements (devices, speaking) and never audio. Against a fake WebSocket
// and a fake capture that plays the analysis worklet with the real kernel (KernelMicrophone) on generated audio.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { MicCheckClient } from '../../Web/sdk/client.js';
import { compileKernel, KernelMicrophone } from '../../Web/sdk/kernel.js';
import { FakeSocket } from './fake-socket.mjs';
import { decodeWAV } from './wav.mjs';

const root = new URL('../../', import.meta.url).pathname;
const wasmPath = join(root, 'Web/sdk/miccheck.wasm');
const needsWasm = { skip: !existsSync(wasmPath) && `no ${wasmPath}: bash scripts/build-wasm.sh` };
const track = () => ({ kind: 'audio', label: 'Fake mic', addEventListener() {}, stop() {} });
const stream = { getAudioTracks: () => [track()], getTracks: () => [track()] };

/** The analysis worklet's part, played in node with the real kernel: commands in, the kernel's texts out. */
class FakeDeviceCapture {
  constructor(module) {
    this.module = module;
    this.commands = [];
    this.onMessages = null;
    this.onBlock = null;
  }
  async start() {
    this.microphone = new KernelMicrophone(this.module, 16000);
    this.now = 0;
    // As DeviceCapture keeps commands until its worklet runs.
    for (const m of this.commands) this.apply(m);
  }
  stop() {}
  resume() {}
  close() {}
  command(m) {
    this.commands.push(m);
    if (this.microphone) this.apply(m);
  }
  apply(m) {
    if (m.type === 'devices') this.#deliver(this.microphone.setMicrophone(m.on, m.cause, this.now));
    if (m.type === 'enter') this.#deliver(this.microphone.enter(m.inCall));
    if (m.type === 'test' && m.action === 'start') this.#deliver(this.microphone.startTest(m.seconds, this.now));
    if (m.type === 'test' && m.action === 'cancel') this.#deliver(this.microphone.cancelTest());
  }
  /** The microphone hears `samples` (16 kHz), 128 at a time, as a worklet would. */
  hear(samples) {
    for (let at = 0; at < samples.length; at += 128, this.now += 128 / 16000) {
      this.#deliver(this.microphone.audio(samples.subarray(at, at + 128), this.now));
    }
  }
  #deliver(bytes) { this.onMessages(KernelMicrophone.texts(bytes), this.microphone.speaking); }
}

// The package's test voice (6.55 s, speech from 0.09 s), after and before a quiet room (1.5 s each).
function speech() {
  const voice = decodeWAV(readFileSync(join(root, 'Sources/MicCheckTesting/Resources/voice.wav'))).samples;
  const quiet = Float32Array.from({ length: 24000 }, (_, i) => 0.0003 * Math.sin(i * 0.37));
  const out = new Float32Array(quiet.length * 2 + voice.length);
  out.set(quiet);
  out.set(voice, quiet.length);
  out.set(quiet, quiet.length + voice.length);
  return out;
}

test('on the device: the call hears statements only; the meter, speaking and "You are muted." come from the kernel',
  needsWasm, async (t) => {
    const module = await compileKernel(readFileSync(wasmPath));
    const capture = new FakeDeviceCapture(module);
    FakeSocket.made = [];
    const c = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
      capture, wasm: module, stream });
    const seen = [];
    for (const type of ['analysis', 'microphone', 'speaking', 'mutednotice']) {
      c.addEventListener(type, (e) => seen.push([type, e.detail]));
    }
    await c.start();
    t.after(() => c.close());
    assert.deepEqual(seen[0], ['analysis', { mode: 'device', reason: null }]);
    const ws = FakeSocket.made[0];
    assert.equal(ws.url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=device');
    ws.accept();
    ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'], analysis: 'device' });
    c.join('Ada');
    capture.hear(speech());
    assert.ok(seen.some(([t, d]) => t === 'microphone' && d.levelDb > -60), 'the meter, from the kernel');
    assert.deepEqual(seen.filter(([t]) => t === 'speaking').map(([, d]) => d.speaking).slice(0, 2), [true, false]);
    const said = ws.texts().filter((m) => m.type === 'speaking').map((m) => m.speaking);
    assert.deepEqual(said.slice(0, 3), [false, true, false], 'the page states its speaking, from the welcome on');
    c.setMuted(true);
    assert.deepEqual(capture.commands.at(-1), { type: 'devices', on: false, cause: 'self' });
    capture.hear(speech());
    assert.ok(seen.some(([t, d]) => t === 'mutednotice' && d.show && d.text === 'You are muted.'));
    assert.equal(ws.sent.filter((d) => typeof d !== 'string').length, 0, 'no audio to the server');
    assert.ok(capture.commands.some((m) => m.type === 'enter' && m.inCall));
  });

test('a kernel that cannot load leaves the analysis to the server, and says why', async () => {
  FakeSocket.made = [];
  const used = [];
  const capture = { command() {}, use(c) { used.push(c); }, async start() {}, stop() {}, resume() {}, close() {} };
  const c = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
    capture, wasm: { ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) }, stream });
  const analysis = [];
  c.addEventListener('analysis', (e) => analysis.push(e.detail));
  await c.start();
  assert.equal(analysis[0].mode, 'server');
  assert.match(analysis[0].reason, /HTTP 404.*the server analyses the microphone/);
  assert.equal(FakeSocket.made[0].url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=server');
  assert.equal(used.length, 1, 'a PCM capture in its place');
  c.close();
});

test('no server at all (endpoint "none"): the meter, speaking, the notices and the microphone test, and no socket',
  needsWasm, async (t) => {
    const module = await compileKernel(readFileSync(wasmPath));
    const capture = new FakeDeviceCapture(module);
    FakeSocket.made = [];
    const c = new MicCheckClient({ endpoint: 'none', WebSocket: FakeSocket, capture, wasm: module, stream });
    assert.equal(c.server, null);
    const seen = [];
    for (const type of ['analysis', 'microphone', 'speaking', 'mutednotice', 'microphonetest', 'connection']) {
      c.addEventListener(type, (e) => seen.push([type, e.detail]));
    }
    await c.start();
    t.after(() => c.close());
    assert.deepEqual(seen[0], ['analysis', { mode: 'device', reason: null }]);
    // The microphone test, judged by the kernel alone: 2 s of the voice, then its verdict.
    const verdict = c.testMicrophone({ seconds: 2, playBack: false });
    capture.hear(speech().subarray(24000, 24000 + 2.2 * 16000));
    const answer = await verdict;
    assert.equal(answer.verdict, 'clear', JSON.stringify(answer));
    assert.ok(seen.some(([t, d]) => t === 'microphonetest' && d.state === 'recording'));
    assert.ok(seen.some(([t, d]) => t === 'microphone' && d.levelDb > -40), 'the meter');
    assert.ok(seen.some(([t, d]) => t === 'speaking' && d.speaking), 'speaking');
    // The page's own call (its SFU's): joined, then muted, its speech is told as "You are muted.".
    c.join('Ada');
    c.setMuted(true);
    capture.hear(speech());
    assert.ok(seen.some(([t, d]) => t === 'mutednotice' && d.show && d.text === 'You are muted.'));
    assert.equal(FakeSocket.made.length, 0, 'no connection is made');
    assert.ok(!seen.some(([t]) => t === 'connection'), 'nor any connection state');
    assert.equal(c.state, 'idle');
  });

test('no server: the analysis is the device\'s or nothing', async () => {
  assert.throws(() => new MicCheckClient({ endpoint: 'none', analysis: 'server' }),
    { code: 'bad-option', message: /no server/ });
  const pcm = { use() {}, async start() {}, stop() {}, resume() {}, close() {} };
  assert.throws(() => new MicCheckClient({ endpoint: 'none', capture: pcm }), { code: 'bad-option' });
  FakeSocket.made = [];
  const capture = { command() {}, use() {}, async start() {}, stop() {}, resume() {}, close() {} };
  const c = new MicCheckClient({ endpoint: 'none', WebSocket: FakeSocket, capture, stream,
    wasm: { ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) } });
  const analysis = [];
  c.addEventListener('analysis', (e) => analysis.push(e.detail));
  const states = [];
  c.addEventListener('connection', (e) => states.push(e.detail.state));
  await assert.rejects(c.start(), { code: 'no-analysis', message: /HTTP 404.*no server to analyse the microphone/ });
  assert.deepEqual(analysis, []);
  assert.equal(FakeSocket.made.length, 0);
  // The client is closed: a retry fails at once rather than wait on a capture that never comes.
  await assert.rejects(c.openMicrophone(), { code: 'closed' });
  await assert.rejects(c.start(), { code: 'closed' });
  c.close();
  assert.deepEqual(states, [], 'no connection to speak of');
});

test('a mute and a join said while the kernel compiles reach it once it runs, and "You are muted." follows',
  needsWasm, async () => {
    const module = await compileKernel(readFileSync(wasmPath));
    const capture = new FakeDeviceCapture(module);
    let compiled;
    const slow = new Promise((resolve) => { compiled = resolve; });
    const c = new MicCheckClient({ endpoint: 'none', capture, wasm: slow.then(() => readFileSync(wasmPath)), stream });
    const notices = [];
    c.addEventListener('mutednotice', (e) => notices.push(e.detail.show));
    const started = c.start();
    // An app (Janus's page after a reload) mutes and joins before the kernel is ready.
    c.setMuted(true);
    c.join('Ada');
    compiled();
    await started;
    assert.deepEqual(capture.commands.slice(0, 2), [{ type: 'devices', on: false, cause: 'self' },
      { type: 'enter', inCall: true }]);
    capture.hear(speech());
    assert.ok(notices.includes(true), 'the muted notice, with the mute said before the kernel ran');
    c.close();
  });
