// The page's analysis (miccheck.wasm, the Swift kernel compiled with Embedded Swift) against the native one
// (`miccheck analyze --format jsonl --precise`) on every file of the public corpus: each frame's probability and
// level within 1e-4, every event the same within one frame. scripts/test.sh sets MICCHECK_BIN (the native
// binary) and MICCHECK_WASM (the module scripts/build-wasm.sh wrote) and MICCHECK_CORPUS; without
// MICCHECK_BIN the test says so and is skipped.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { compileKernel, KernelAnalysis } from '../../Web/sdk/kernel.js';
import { decodeWAV } from './wav.mjs';

const root = new URL('../../', import.meta.url).pathname;
const bin = process.env.MICCHECK_BIN;
const wasmPath = process.env.MICCHECK_WASM ?? join(root, 'Web/sdk/miccheck.wasm');
const corpus = process.env.MICCHECK_CORPUS ?? join(root, '../shared/corpus');
const run = promisify(execFile);

/** The page's records for `samples`, fed as an AudioWorklet would: 128 samples at a time. */
function analyseInPage(module, rate, samples) {
  const analysis = new KernelAnalysis(module, rate);
  const records = [];
  for (let at = 0; at < samples.length; at += 128) records.push(...analysis.process(samples.subarray(at, at + 128)));
  records.push(...analysis.finish());
  return records;
}

async function analyseNatively(file) {
  const { stdout } = await run(bin, ['analyze', '--format', 'jsonl', '--precise', file], { maxBuffer: 1 << 28 });
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

/** Where the page and the native analysis part, or null: frames within 1e-4, events within one frame. */
export function firstDisagreement(page, native) {
  const frames = (rs) => rs.filter((r) => r.type === 'frame' || (r.type === undefined && r.event === undefined));
  const events = (rs) => rs.filter((r) => r.event !== undefined);
  const [pf, nf] = [frames(page), frames(native)];
  if (pf.length !== nf.length) return `${pf.length} frames in the page, ${nf.length} natively`;
  // Rounded as the native side prints (half away from zero), then compared.
  const round = (v, d) => Math.sign(v) * Math.round(Math.abs(v) * 10 ** d) / 10 ** d;
  for (let i = 0; i < nf.length; i++) {
    const [p, n] = [pf[i], nf[i]];
    if (Math.abs(round(p.t, 2) - n.t) > 1e-9) return `frame ${i}: t ${p.t} against ${n.t}`;
    const at = `frame ${i} (t ${n.t})`;
    if (Math.abs(round(p.prob, 6) - n.prob) > 1e-4) return `${at}: probability ${p.prob} against ${n.prob}`;
    if (Math.abs(round(p.level_db, 4) - n.level_db) > 1e-4) return `${at}: level ${p.level_db} against ${n.level_db}`;
    if (p.speech !== n.speech || p.speaking !== n.speaking) return `${at}: speech or speaking differ`;
  }
  const [pe, ne] = [events(page), events(native)];
  if (pe.length !== ne.length) {
    const names = (es) => es.map((e) => e.event).join(' ');
    return `${pe.length} events in the page, ${ne.length} natively: ${names(pe)} / ${names(ne)}`;
  }
  for (let i = 0; i < ne.length; i++) {
    const [p, n] = [pe[i], ne[i]];
    if (p.event !== n.event) return `event ${i}: ${p.event} against ${n.event}`;
    if (Math.abs(p.t - n.t) > 0.0100001) return `event ${i} (${n.event}): t ${p.t} against ${n.t}`;
  }
  return null;
}

const files = existsSync(corpus) ? readdirSync(corpus).filter((f) => f.endsWith('.wav')).sort() : [];

const needsBinary = { skip: !bin && 'set MICCHECK_BIN to the native miccheck (scripts/test.sh does)' };
const needsWasm = { skip: !existsSync(wasmPath) && `no ${wasmPath}: bash scripts/build-wasm.sh` };

test('the page\'s WebAssembly analysis agrees with the native one on every corpus file', needsBinary, async () => {
  assert.ok(files.length >= 40, `the public corpus at ${corpus}`);
  const module = await compileKernel(readFileSync(wasmPath));
  // Natively two at a time (a debug build reads the corpus in minutes), the page's meanwhile.
  const native = new Map();
  const queue = [...files];
  const workers = Promise.all([0, 1].map(async () => {
    for (let f; (f = queue.shift());) native.set(f, await analyseNatively(join(corpus, f)));
  }));
  workers.catch(() => {}); // awaited below, after the page's analyses
  const page = new Map();
  for (const f of files) {
    const { rate, samples } = decodeWAV(readFileSync(join(corpus, f)));
    page.set(f, analyseInPage(module, rate, samples));
    await new Promise((r) => setImmediate(r));
  }
  await workers;
  const disagreements = files.map((f) => [f, firstDisagreement(page.get(f), native.get(f))]).filter(([, d]) => d);
  assert.deepEqual(disagreements, []);
  const frames = [...page.values()].reduce((n, rs) => n + rs.filter((r) => r.type === 'frame').length, 0);
  assert.ok(frames > 100_000, `${frames} frames compared`);
});

test('the comparison tells a probability moved by more than 1e-4, and an event a frame and a half late', () => {
  const frame = (t, prob) => ({ type: 'frame', t, level_db: -30, peak_db: -20, prob, speech: false,
    speaking: false });
  const native = [frame(0, 0.5), { event: 'speech_started', t: 0.01, audio_start: 0 }, frame(0.01, 0.9)];
  const started = (t) => ({ type: 'event', event: 'speech_started', t });
  assert.equal(firstDisagreement([frame(0, 0.5), started(0.02), frame(0.01, 0.90005)], native), null);
  assert.match(firstDisagreement([frame(0, 0.5002), started(0.01), frame(0.01, 0.9)], native), /probability/);
  assert.match(firstDisagreement([frame(0, 0.5), started(0.025), frame(0.01, 0.9)], native), /event 0/);
});

test('a rate outside 8 to 96 kHz is refused, and a closed analysis throws', needsWasm, async () => {
  const module = await compileKernel(readFileSync(wasmPath));
  assert.throws(() => new KernelAnalysis(module, 7999), /7999 Hz/);
  assert.throws(() => new KernelAnalysis(module, 192000), /192000 Hz/);
  const a = new KernelAnalysis(module, 48000);
  assert.deepEqual(a.process(new Float32Array(100)), []);
  a.finish();
  assert.throws(() => a.process(new Float32Array(480)), /closed/);
  const missing = { ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) };
  await assert.rejects(compileKernel(missing), /HTTP 404/);
});
