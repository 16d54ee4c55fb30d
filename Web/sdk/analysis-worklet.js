// The AudioWorklet of on-device analysis: MicCheck's kernel (miccheck.wasm, compiled by the page and handed
// over in processorOptions.module) runs on the microphone at the AudioContext's own rate, so levels and
// clipping are judged on the capture itself, and nothing leaves the device. It posts the kernel's messages
// (UTF-8 bytes of JSON texts, a line each: this scope has no TextDecoder) with whether the participant speaks,
// and, while a microphone test records, the test's 16 kHz PCM for its playback (downsampler.js).
//
// From the main thread: { type: 'devices', on, cause }, { type: 'enter', inCall }, { type: 'silence' },
// { type: 'test', action: 'start' | 'cancel', seconds }, { type: 'grant', maySendAudio }, { type: 'reset' } (a new
// track: the kernel anew, so no stale speaking state remains).
import { Downsampler } from './downsampler.js';
import { KERNEL_BLOCK, KernelMicrophone } from './kernel.js';

class AnalysisProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const { module, audioOn = true, maySendAudio = true } = options.processorOptions;
    this.module = module;
    this.state = { audioOn, maySendAudio, cause: 'self', inCall: false, silenced: false };
    this.microphone = this.#fresh();
    this.speaking = false;
    this.nextTick = 0;
    this.testing = null; // the downsampler of a test's playback copy
    this.port.onmessage = (e) => this.#command(e.data);
  }

  // A kernel with the page's state: at the start, and after a new track (no stale speaking state remains).
  #fresh() {
    const s = this.state;
    const microphone = new KernelMicrophone(this.module, sampleRate,
      { audioOn: s.audioOn, maySendAudio: s.maySendAudio, now: currentTime });
    if (s.inCall) microphone.enter(true);
    if (s.silenced) microphone.silenceMutedNotice();
    if (!s.audioOn) microphone.setMicrophone(false, s.cause, currentTime);
    return microphone;
  }

  #command(m) {
    let bytes = null;
    switch (m.type) {
      case 'devices':
        this.state.audioOn = !!m.on;
        this.state.cause = m.cause || 'self';
        bytes = this.microphone.setMicrophone(this.state.audioOn, this.state.cause, currentTime);
        break;
      case 'enter':
        this.state.inCall = !!m.inCall;
        bytes = this.microphone.enter(this.state.inCall);
        break;
      case 'silence':
        this.state.silenced = true;
        bytes = this.microphone.silenceMutedNotice();
        break;
      case 'test':
        if (m.action === 'start') {
          bytes = this.microphone.startTest(m.seconds, currentTime);
          this.testing = new Downsampler(sampleRate, (block) => this.port.postMessage({ pcm: block.buffer },
            [block.buffer]));
        } else {
          bytes = this.microphone.cancelTest();
          this.testing = null;
        }
        break;
      case 'grant':
        // The call's grant (the welcome's capabilities): a listener is never "muted".
        if (this.state.maySendAudio === !!m.maySendAudio) break;
        this.state.maySendAudio = !!m.maySendAudio;
        this.microphone.close();
        this.microphone = this.#fresh();
        break;
      case 'reset':
        this.microphone.close();
        this.microphone = this.#fresh();
        this.testing = null;
        break;
      default:
    }
    this.#post(bytes);
  }

  #post(bytes) {
    // A test that ended (its verdict, a cancel, a refusal) ends its playback copy.
    if (this.testing && !this.microphone.testing) this.testing = null;
    const speaking = this.microphone.speaking;
    if (!bytes && speaking === this.speaking) return;
    this.speaking = speaking;
    if (bytes) {
      this.port.postMessage({ messages: bytes.buffer, speaking }, [bytes.buffer]);
    } else {
      this.port.postMessage({ messages: null, speaking });
    }
  }

  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length > 0) {
      // Mono as MicCheck reads a file (the channels averaged), written straight into the kernel's input (a render
      // quantum, 128 frames, fits its block). The kernel rounds it to the 16 bits a microphone delivers.
      const frames = channels[0].length;
      const direct = frames <= KERNEL_BLOCK;
      if (!direct && (!this.mono || this.mono.length !== frames)) this.mono = new Float32Array(frames);
      const mono = direct ? this.microphone.inputView() : this.mono;
      const count = channels.length;
      if (count === 1) {
        mono.set(channels[0]);
      } else {
        for (let i = 0; i < frames; i++) {
          let x = channels[0][i];
          for (let c = 1; c < count; c++) x += channels[c][i];
          mono[i] = x / count;
        }
      }
      this.#post(direct ? this.microphone.audioWritten(frames, currentTime) : this.microphone.audio(mono, currentTime));
      if (this.testing) this.testing.push(channels);
    }
    if (currentTime >= this.nextTick) {
      this.nextTick = currentTime + 0.25;
      this.#post(this.microphone.tick(currentTime));
    }
    return true;
  }
}

registerProcessor('miccheck-analysis', AnalysisProcessor);
