#!/usr/bin/env node
// The page's analysis against the native one on the public corpus: miccheck.wasm (KernelAnalysis, 4,096-sample
// blocks, as the page's own files would be fed) in node's V8, and, with --native, the release command
// (`miccheck analyze --format json`) on the same files, each timed three times, the best kept, in one run.
//
//   node scripts/bench-wasm.mjs [--wasm FILE] [--native .build/release/miccheck] [--corpus DIR]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { compileKernel, KernelAnalysis } from '../Web/sdk/kernel.js';
import { decodeWAV } from '../Tests/Web/wav.mjs';

const root = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({ options: {
  wasm: { type: 'string', default: join(root, 'Web/sdk/miccheck.wasm') },
  native: { type: 'string' },
  corpus: { type: 'string', default: join(root, '../shared/corpus') },
} });
const BLOCK = 4096;
const ROUNDS = 3;

const paths = readdirSync(values.corpus).filter((f) => f.endsWith('.wav')).sort()
  .map((f) => join(values.corpus, f));
const files = paths.map((p) => decodeWAV(readFileSync(p)));
const seconds = files.reduce((s, f) => s + f.samples.length / f.rate, 0);
const module = await compileKernel(readFileSync(values.wasm));

function wasmOnce() {
  const start = process.hrtime.bigint();
  let records = 0;
  for (const f of files) {
    const analysis = new KernelAnalysis(module, f.rate);
    for (let at = 0; at < f.samples.length; at += BLOCK) {
      records += analysis.process(f.samples.subarray(at, at + BLOCK)).length;
    }
    records += analysis.finish().length;
  }
  if (records === 0) throw new Error('the kernel decided nothing');
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function nativeOnce() {
  const start = process.hrtime.bigint();
  execFileSync(values.native, ['analyze', '--format', 'json', ...paths], { stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 1 << 30 });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const best = (run) => Math.min(...Array.from({ length: ROUNDS }, run));
const size = readFileSync(values.wasm).length;
const wasm = best(wasmOnce);
console.log(`corpus: ${files.length} files, ${(seconds / 60).toFixed(1)} min`);
console.log(`miccheck.wasm (${size} bytes): ${wasm.toFixed(2)} s, ${Math.round(seconds / wasm)}x real time`);
if (values.native) {
  const native = best(nativeOnce);
  console.log(`native (${values.native}): ${native.toFixed(2)} s, ${Math.round(seconds / native)}x real time`);
  console.log(`wasm against native: ${(native / wasm).toFixed(2)}x`);
}
