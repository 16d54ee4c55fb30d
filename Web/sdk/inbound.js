// What the server says, or the kernel on the device in the same words, applied to the client's session
// (session.js): the welcome, the microphone check, the notices, presence, signals, the microphone test, and
// /v1/vad's events.
import { decode } from './protocol.js';

// The muted notice's action (the page binds the key).
const UNMUTE = Object.freeze({ label: 'Unmute', key: 'm' });
// The meter's 0…1 as the phone SDK maps −50…0 dBFS (the call endpoint sends it; /v1/vad sends dB only).
const display = (db) => Math.max(0, Math.min(1, (db + 50) / 50));

/** One message (a JSON text) for `session`; a malformed one is an `error` event. */
export function receive(session, text) {
  let m;
  try {
    m = decode(text);
  } catch (error) {
    session.emit('error', { message: error.message });
    return;
  }
  switch (m.type) {
    case 'welcome': welcomed(session, m); break;
    case 'microphone': session.level(m); break;
    case 'muted_notice': session.moderation.mutedNotice(m, session.muteCause, session.noticeOff); break;
    case 'presence': case 'joined': case 'updated': case 'left': {
      const result = session.roster.take(m);
      if (result === 'resync') session.link.send({ type: 'resync' });
      if (result !== 'applied') return;
      session.emit('presence', { participants: [...session.participants.values()], me: session.me,
        change: m.type === 'presence' ? null : m });
      break;
    }
    case 'signal': session.emit('signal', { from: m.from, data: m.data }); break;
    case 'microphone_test': session.test.receive(m); break;
    case 'muted_by_host': case 'typing_notice': session.moderation.receive(m); break;
    case 'error': session.emit('error', { message: m.message }); break;
    case 'level':
      session.level({ on: !session.muted, levelDb: m.level_db, display: display(m.level_db), speaking: !!m.speaking,
        notWorking: null, warnings: [] });
      session.emit('vad', m);
      break;
    case 'muted_speech_started':
      if (m.notice) session.emit('mutednotice', { show: true, text: 'You are muted.', durationMs: 2000,
        cause: session.muteCause, action: UNMUTE });
      session.emit('vad', m);
      break;
    default: session.emit('vad', m);
  }
}

// The server's welcome: this page's id and role, its devices told, and the call joined again after a
// reconnection.
function welcomed(session, m) {
  session.me = m.id;
  session.link.forgetDevices();
  session.capabilities = m.capabilities;
  // A role that may not send audio is not listened to (an invitation given as a function is read here),
  // before the page hears of the welcome: its listeners see the stream gone.
  if (!session.may('audio')) session.audio.drop();
  session.moderation.connected();
  session.emit('welcome', m);
  session.sendDevices();
  session.device?.command({ type: 'grant', maySendAudio: session.may('audio') });
  if (session.device) session.link.stateSpeaking(session.speaking);
  if (session.rejoin !== null) session.join(session.rejoin);
}
