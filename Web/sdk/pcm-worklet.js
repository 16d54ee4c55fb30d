// The AudioWorklet of the capture: runs at the AudioContext's own rate and hands the main thread 20 ms
// blocks of 16 kHz mono 16-bit PCM (the arithmetic is downsampler.js).
import { Downsampler } from './downsampler.js';

class PCMDownsampler extends AudioWorkletProcessor {
  constructor() {
    super();
    this.downsampler = new Downsampler(sampleRate, (block) => this.port.postMessage(block.buffer, [block.buffer]));
  }

  process(inputs) {
    this.downsampler.push(inputs[0]);
    return true;
  }
}

registerProcessor('miccheck-pcm', PCMDownsampler);
