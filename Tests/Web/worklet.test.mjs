// The analysis worklet itself (sdk/analysis-worklet.js) run in node with the real kernel: AudioWorkletGlobalScope's
// few globals (sampleRate, currentTime, registerProcessor, AudioWorkletProcessor and its port) given by hand, and
// audio fed 128 frames at a time as Chromium's audio thread feeds it. Every AudioContext rate a browser may pick,
// a new track while the participant speaks, and ten minutes of a call with the memory watched.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { compileKernel, KernelMicrophone } from '../../Web/sdk/kernel.js';
import { decodeWAV } from './wav.mjs';

const root = new URL('../../', import.meta.url).pathname;
const wasmPath = join(root, 'Web/sdk/miccheck.wasm');
const needsWasm = { skip: !existsSync(wasmPath) && `no ${wasmPath}: bash scripts/build-wasm.sh` };
const QUANTUM = 128;
// The test voice's speech starts 0.09 s into it; it comes after 1.5 s of a quiet room.
const QUIET_S = 1.5;
const ONSET_S = QUIET_S + 0.09;

let Processor = null;
globalThis.AudioWorkletProcessor = class {
  constructor() { this.port = { onmessage: null, posted: [], postMessage(m) { this.posted.push(m); } }; }
};
globalThis.registerProcessor = (name, processor) => { Processor = processor; };
globalThis.currentTime = 0;
await import('../../Web/sdk/analysis-worklet.js');

/** A worklet at `rate`, as the SDK makes one (DeviceCapture: the compiled module in processorOptions). */
function worklet(module, rate) {
  globalThis.sampleRate = rate;
  globalThis.currentTime = 0;
  const processor = new Processor({ processorOptions: { module } });
  return {
    processor,
    time: 0,
    /** Feeds `samples` (mono, at `rate`); returns what the worklet posted, each with the time it was posted at. */
    hear(samples) {
      const out = [];
      for (let at = 0; at + QUANTUM <= samples.length; at += QUANTUM) {
        globalThis.currentTime = this.time;
        processor.process([[samples.subarray(at, at + QUANTUM)]]);
        for (const m of processor.port.posted.splice(0)) out.push({ ...m, time: this.time });
        this.time += QUANTUM / rate;
      }
      return out;
    },
    command(data) {
      globalThis.currentTime = this.time;
      processor.port.onmessage({ data });
      return processor.port.posted.splice(0);
    },
  };
}

const texts = (posted) => posted.flatMap((m) => KernelMicrophone.texts(m.messages && new Uint8Array(m.messages)))
  .map((t) => JSON.parse(t));

/** The package's test voice (16 kHz) at `rate` (linear interpolation), between two quiet stretches. */
function speech(rate) {
  const voice = decodeWAV(readFileSync(join(root, 'Sources/MicCheckTesting/Resources/voice.wav'))).samples;
  const length = Math.floor(voice.length * rate / 16000);
  const quiet = Math.round(QUIET_S * rate);
  const out = new Float32Array(quiet * 2 + length);
  for (let i = 0; i < out.length; i++) out[i] = 0.0003 * Math.sin(i * 2 * Math.PI * 97 / rate);
  for (let i = 0; i < length; i++) {
    const x = i * 16000 / rate;
    const j = Math.floor(x);
    const f = x - j;
    out[quiet + i] += voice[j] * (1 - f) + (voice[Math.min(j + 1, voice.length - 1)] || 0) * f;
  }
  return out;
}

test('every AudioContext rate a browser may choose: the meter, speaking from the onset and after it', needsWasm,
  async () => {
    const module = await compileKernel(readFileSync(wasmPath));
    const onsets = {};
    for (const rate of [8000, 16000, 44100, 48000, 96000]) {
      const w = worklet(module, rate);
      const posted = w.hear(speech(rate));
      const changes = posted.filter((m, i) => i === 0 || m.speaking !== posted[i - 1].speaking);
      const started = changes.find((m) => m.speaking);
      assert.ok(started, `${rate} Hz: speaking`);
      assert.equal(posted.at(-1).speaking, false, `${rate} Hz: speaking ended in the quiet after the voice`);
      onsets[rate] = started.time - ONSET_S;
      assert.ok(onsets[rate] > -0.02 && onsets[rate] < 0.5, `${rate} Hz: speaking ${onsets[rate]} s after the onset`);
      const levels = texts(posted).filter((m) => m.type === 'microphone').map((m) => m.level_db);
      assert.ok(levels.length > 10, `${rate} Hz: the meter`);
      assert.ok(Math.max(...levels) > -30 && Math.min(...levels) < -60, `${rate} Hz: levels ${Math.min(...levels)}`
        + ` to ${Math.max(...levels)} dBFS`);
    }
    const spread = Math.max(...Object.values(onsets)) - Math.min(...Object.values(onsets));
    assert.ok(spread < 0.1, `the onset, answered alike at every rate: ${JSON.stringify(onsets)}`);
  });

test('the kernel hears the 16 bits a microphone delivers: under half a step is digital silence, a dead microphone',
  needsWasm, async () => {
    const module = await compileKernel(readFileSync(wasmPath));
    const heard = (amplitude) => {
      const tone = new Float32Array(4 * 48000).map((_, i) => amplitude * Math.sin(i * 2 * Math.PI * 440 / 48000));
      return texts(worklet(module, 48000).hear(tone)).filter((m) => m.type === 'microphone');
    };
    const step = 1 / 32768;
    // What a browser's processing leaves on an idle converter: float noise far below one step.
    const under = heard(0.45 * step);
    assert.ok(under.length > 10 && under.every((m) => m.level_db < -150), `levels ${under.map((m) => m.level_db)}`);
    assert.equal(typeof under.at(-1).not_working, 'string', 'digital silence: the dead microphone');
    // One step at the peaks is a sound.
    const over = heard(0.55 * step);
    assert.ok(over.slice(5).every((m) => m.level_db > -110), `levels ${over.map((m) => m.level_db)}`);
  });

test('a new track while the participant speaks: the kernel starts afresh, no stale speaking remains', needsWasm,
  async () => {
    const module = await compileKernel(readFileSync(wasmPath));
    const w = worklet(module, 48000);
    const audio = speech(48000);
    const posted = w.hear(audio.subarray(0, Math.round((ONSET_S + 1.5) * 48000)));
    assert.equal(posted.at(-1).speaking, true, 'speaking before the new track');
    const after = w.command({ type: 'reset' });
    assert.deepEqual(after.map((m) => m.speaking), [false], 'not speaking the moment the kernel is new');
    assert.equal(w.processor.microphone.speaking, false);
    // The new track is a quiet room: nothing says speaking again.
    const quiet = w.hear(audio.subarray(0, Math.round(QUIET_S * 48000)));
    assert.ok(quiet.every((m) => !m.speaking), 'no speaking in the new track\'s quiet');
  });

test('ten minutes of a call at 48 kHz: the kernel\'s memory does not grow, nor the worklet\'s heap', needsWasm,
  async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const module = await compileKernel(readFileSync(wasmPath));
    const w = worklet(module, 48000);
    w.command({ type: 'enter', inCall: true });
    const audio = speech(48000); // 9.55 s: voice, quiet, looped
    const minute = () => {
      let said = 0;
      for (let s = 0; s < 60; s += audio.length / 48000) said += texts(w.hear(audio)).length;
      return said;
    };
    const memory = () => w.processor.microphone.k.memory.buffer.byteLength;
    const heap = () => { gc(); return process.memoryUsage().heapUsed; };
    assert.ok(minute() > 0);
    // Muted half of the time, as in a call: the muted notice's rule runs too.
    w.command({ type: 'devices', on: false, cause: 'self' });
    minute();
    w.command({ type: 'devices', on: true, cause: 'self' });
    const [memoryAtTwo, heapAtTwo] = [memory(), heap()];
    for (let m = 3; m <= 10; m++) {
      if (m % 2 === 1) w.command({ type: 'devices', on: m % 4 !== 1, cause: 'self' });
      assert.ok(minute() > 0, `minute ${m}: the kernel still speaks`);
    }
    assert.equal(memory(), memoryAtTwo, 'the kernel\'s memory after ten minutes, as after two');
    const grown = heap() - heapAtTwo;
    assert.ok(grown < 1 << 20, `the heap grew ${grown} bytes in eight minutes`);
  });
