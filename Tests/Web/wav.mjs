// WAV files for the node tests, read as MicCheck's native WAVReader reads them.
import assert from 'node:assert/strict';

/** A PCM WAV file's samples as the native reader makes them: 16-bit over 32768, channels averaged. */
export function decodeWAV(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at) => String.fromCharCode(...bytes.subarray(at, at + 4));
  assert.equal(tag(0), 'RIFF');
  assert.equal(tag(8), 'WAVE');
  let at = 12, format = null;
  while (at + 8 <= bytes.length) {
    const id = tag(at), size = view.getUint32(at + 4, true), body = at + 8;
    if (id === 'fmt ') {
      format = { encoding: view.getUint16(body, true), channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      assert.ok(format && format.encoding === 1 && format.bits === 16, 'the corpus is 16-bit PCM');
      const frames = Math.floor(Math.min(size, bytes.length - body) / (2 * format.channels));
      const out = new Float32Array(frames);
      for (let f = 0; f < frames; f++) {
        let sum = 0;
        for (let c = 0; c < format.channels; c++) {
          sum += view.getInt16(body + 2 * (f * format.channels + c), true) / 32768;
        }
        out[f] = format.channels === 1 ? sum : sum * (1 / format.channels);
      }
      return { rate: format.rate, samples: out };
    }
    at = body + size + (size & 1);
  }
  throw new Error('no data chunk');
}
