// Where a client's microphone is analysed: MicCheck's kernel (miccheck.wasm) in the page, or the server. The
// kernel is compiled once; one that cannot load (a 404, a content policy without 'wasm-unsafe-eval', an old
// browser) leaves the analysis to the server, and says why, or fails when there is no server to leave it to.
import { DeviceCapture, PcmCapture } from './capture.js';
import { compileKernel } from './kernel.js';
import { MicCheckError } from './microphone.js';

/**
 * Chooses and installs the capture: `capture` is the client's (a SwitchedCapture, or a test's own; one with the
 * kernel's `command` is the device capture itself).
 * @param {{ analysis: 'device' | 'server', endpoint: string, wasm: string | URL | Response | Promise<Response>
 *   | ArrayBuffer | WebAssembly.Module, capture: object }} how
 * @returns {Promise<{ mode: 'device' | 'server', device: object | null,
 *   event: { mode: string, reason: string | null } | null }>} `event`: the `analysis` event, when there is one
 * @throws {MicCheckError} `no-analysis`: the kernel cannot run and there is no server (endpoint `none`)
 */
export async function chooseAnalysis({ analysis, endpoint, wasm, capture }) {
  let event = null;
  if (analysis === 'device') {
    try {
      const module = await compileKernel(typeof wasm === 'string' || wasm instanceof URL ? fetch(wasm) : wasm);
      const device = capture.command ? capture : new DeviceCapture(module, {});
      if (!capture.command) capture.use(device);
      return { mode: 'device', device, event: { mode: 'device', reason: null } };
    } catch (error) {
      if (endpoint === 'none') {
        throw new MicCheckError('no-analysis', `MicCheck's analysis could not run in this page (${error.message}),`
          + ' and there is no server to analyse the microphone');
      }
      event = { mode: 'server', reason: `MicCheck's analysis could not run in this page (${error.message}); the `
        + 'server analyses the microphone' };
    }
  }
  if (capture.use) capture.use(new PcmCapture(null));
  return { mode: 'server', device: null, event };
}
