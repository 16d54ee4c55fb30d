// MicCheckClient's options, checked once: what the client connects to, where the microphone is analysed, and
// what it was given. Pure, for node's test runner; a bad option is a MicCheckError ('bad-option', 'bad-call').
import { MicCheckError } from './microphone.js';

const ENDPOINTS = ['call', 'vad', 'none'];

/** The role an invitation (a join token given as a string) names, read without checking it; null if none. */
export function roleOf(token) {
  if (typeof token !== 'string') return null;
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const role = JSON.parse(atob(payload)).role;
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}

/**
 * The options of types.js's `MicCheckClientOptions`, checked: `endpoint` ('call' with a call id, 'vad'
 * without, or 'none': no server at all), `server` (a URL; the SDK's own origin by default; null with no server),
 * `analysis` ('device': MicCheck's kernel in the page, the default for a call, so no audio leaves it; 'server':
 * always on /v1/vad; a capture given without the kernel's commands, as tests give, is a server capture), and the
 * microphone's `choice`.
 * @param {object} options
 * @param {string} origin the origin the SDK was loaded from
 */
export function clientOptions(options, origin) {
  const { server, call = null, token = null, stream = null, microphone = {}, backoff = {} } = options;
  const endpoint = options.endpoint || (call ? 'call' : 'vad');
  if (!ENDPOINTS.includes(endpoint)) {
    throw new MicCheckError('bad-option', `endpoint must be "call", "vad" or "none", not ${JSON.stringify(endpoint)}`);
  }
  if (endpoint === 'call' && !/^[A-Za-z0-9_-]{1,64}$/.test(call || '')) {
    throw new MicCheckError('bad-call', 'a call id is 1 to 64 letters, digits, "-" or "_"');
  }
  if (token !== null && typeof token !== 'string' && typeof token !== 'function') {
    throw new MicCheckError('bad-option', 'token is a string, or a function that gives one (or a promise of one)');
  }
  const analysis = options.analysis || (endpoint === 'vad' ? 'server' : 'device');
  if (analysis !== 'device' && analysis !== 'server') {
    throw new MicCheckError('bad-option', `analysis is "device" or "server", not ${JSON.stringify(analysis)}`);
  }
  if (analysis === 'device' && endpoint === 'vad') {
    throw new MicCheckError('bad-option', '/v1/vad analyses on the server: use analysis "server" with it');
  }
  if (analysis === 'server' && endpoint === 'none') {
    throw new MicCheckError('bad-option', 'with no server (endpoint "none") the analysis runs on the device');
  }
  if (endpoint === 'none' && options.capture && !options.capture.command) {
    throw new MicCheckError('bad-option', 'with no server (endpoint "none") the capture must run the kernel');
  }
  return {
    endpoint,
    server: endpoint === 'none' ? null : new URL(server || origin),
    call,
    token,
    stream,
    backoff,
    choice: { deviceId: microphone.deviceId || '', processing: microphone.processing !== false },
    analysis: options.capture && !options.capture.command ? 'server' : analysis,
  };
}
