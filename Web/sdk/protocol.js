// The server's messages, decoded and checked, and what its close codes mean. Pure, for node's test runner.
// The wire format is Guides/Browser.md's (`/v1/call`) and Guides/CommandLine.md's (`/v1/vad`).

/** A message from the server that MicCheck's client cannot read. */
export class ProtocolError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ProtocolError';
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function need(m, field, type) {
  const v = m[field];
  const ok = type === 'array' ? Array.isArray(v) : type === 'object' ? isObject(v) : typeof v === type;
  if (!ok) throw new ProtocolError(`a "${m.type}" message needs "${field}" (${type})`);
  return v;
}

function participant(p) {
  if (!isObject(p) || typeof p.id !== 'string' || typeof p.name !== 'string') {
    throw new ProtocolError('a participant needs an "id" and a "name"');
  }
  return { id: p.id, name: p.name, audio: p.audio === true, video: p.video === true, speaking: p.speaking === true };
}

const numberOrNull = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// "Test your microphone"'s answers: `recording` (with its seconds), `cancelled`, or `done` with the verdict and
// its figures in camelCase (a level the server could not measure is null). A verdict is `clear`, `too_quiet`,
// `clipping`, `noisy`, `no_voice` or `dead`; one a newer server adds comes through as it is.
function microphoneTest(m) {
  const state = need(m, 'state', 'string');
  if (state === 'recording') return { type: m.type, state, seconds: numberOrNull(m.seconds) ?? 5 };
  if (state !== 'done') return { type: m.type, state };
  const verdict = need(m, 'verdict', 'string');
  const out = { type: m.type, state, verdict, sentence: need(m, 'sentence', 'string'),
    recordedSeconds: numberOrNull(m.recorded_seconds) ?? 0, speechSeconds: numberOrNull(m.speech_seconds) ?? 0,
    speechLevelDb: numberOrNull(m.speech_level_db), noiseLevelDb: numberOrNull(m.noise_level_db) };
  if (typeof m.noise === 'string') out.noise = m.noise;
  if (numberOrNull(m.clipped_percent) !== null) out.clippedPercent = m.clipped_percent;
  if (numberOrNull(m.ceiling_db) !== null) out.ceilingDb = m.ceiling_db;
  if (typeof m.reason === 'string') out.reason = m.reason;
  return out;
}

/**
 * One text message from the server, checked: the fields each type needs, participants normalised, the
 * microphone's state in camelCase. An unknown type comes back as it is (a newer server may add some).
 * @throws {ProtocolError} not JSON, no type, or a known type without its fields
 */
export function decode(text) {
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    throw new ProtocolError('a message that is not JSON');
  }
  if (!isObject(m) || typeof m.type !== 'string') throw new ProtocolError('a message without a "type"');
  switch (m.type) {
    case 'welcome':
      need(m, 'id', 'string');
      return { type: m.type, id: m.id, call: m.call, capabilities: Array.isArray(m.capabilities) ? m.capabilities : [],
        name: typeof m.name === 'string' ? m.name : null, sampleRate: m.sample_rate || 16000 };
    case 'microphone':
      need(m, 'on', 'boolean');
      return { type: m.type, on: m.on, levelDb: Number(m.level_db), display: m.on ? Number(m.display) || 0 : 0,
        speaking: m.speaking === true, notWorking: typeof m.not_working === 'string' ? m.not_working : null,
        warnings: Array.isArray(m.warnings) ? m.warnings.filter((w) => typeof w === 'string') : [] };
    case 'muted_notice':
      need(m, 'show', 'boolean');
      return { type: m.type, show: m.show, text: typeof m.text === 'string' ? m.text : 'You are muted.',
        durationMs: Number.isFinite(m.duration_ms) ? m.duration_ms : 2000 };
    case 'presence':
      need(m, 'version', 'number');
      return { type: m.type, version: m.version, participants: need(m, 'participants', 'array').map(participant) };
    case 'joined': case 'updated':
      need(m, 'version', 'number');
      return { type: m.type, version: m.version, participant: participant(m.participant) };
    case 'left':
      need(m, 'version', 'number');
      return { type: m.type, version: m.version, id: need(m, 'id', 'string') };
    case 'signal':
      return { type: m.type, from: need(m, 'from', 'string'), data: need(m, 'data', 'object') };
    case 'error':
      return { type: m.type, message: String(m.message || 'error') };
    case 'microphone_test':
      return microphoneTest(m);
    default:
      return m;
  }
}

/**
 * What a closed connection means. The server refuses with 4000 + the HTTP status and the reason as the
 * WebSocket opens (Guides/Security.md): a refusal will not change on a retry, so it is said once and not
 * retried. Anything else (the server restarting, the network) is retried with backoff. The server also closes
 * with 4401 when the invitation expires under an open connection: `renewable` (a new token can be had) makes
 * that a lost connection, retried with the new token.
 * @param {{renewable?: boolean}} [options]
 * @returns {{refused: boolean, message: string}}
 */
export function closeMeaning(code, reason, { renewable = false } = {}) {
  const why = reason ? `: ${reason}` : '';
  if (code === 4401 && renewable) return { refused: false, message: `Disconnected from the server${why}.` };
  if (code === 4401) {
    // The server's reason may already say what to do ("ask its host for an invitation").
    const advice = /\bask\b/i.test(reason || '') ? '' : ' Ask for a new link.';
    return { refused: true, message: `This invitation cannot be used${why}.${advice}` };
  }
  if (code >= 4400 && code < 4500) return { refused: true, message: `The server refused this page${why}.` };
  return { refused: false, message: `Disconnected from the server${why}.` };
}

/** A message the page sends, as text. */
export const encode = (message) => JSON.stringify(message);
