// What MicCheckClient adds for a call's moderation and etiquette: a host's mute (asking for one, and being
// muted by one), the typing notice, and the `devices` message with the mute's cause. Pure but for the
// callbacks it is given, for node's test runner.
import { MicCheckError } from './microphone.js';

/** The typing notice's action, and the muted notice's (the page binds the key to the microphone's toggle). */
export const MUTE_ACTION = Object.freeze({ label: 'Mute', key: 'm' });
const UNMUTE_ACTION = Object.freeze({ label: 'Unmute', key: 'm' });

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The page's `devices` message. Muted by push-to-talk it says so (the server then sends no muted notice);
 * muted by a host on this connection it leaves `audio` out, because the server turned it off already and
 * a plain `audio: false` would make the mute the user's own (a host's mute outlasts "don't show again").
 */
export function devicesMessage(client, hostMuted) {
  const { muted, muteCause } = client;
  const message = { type: 'devices', audio: !muted && !!client.stream && client.may('audio'),
    video: !!client.video && client.may('video') };
  if (muted && muteCause === 'host' && hostMuted) delete message.audio;
  else if (muted && muteCause === 'push-to-talk') message.cause = 'push-to-talk';
  return message;
}

/**
 * `muted_by_host`'s fields, checked: `{by: {id, name}, text}` (the text "NAME muted you." made from the name
 * when the server sent none). Null when it is not such a message.
 */
export function mutedByHost(m) {
  if (!isObject(m.by) || typeof m.by.id !== 'string' || typeof m.by.name !== 'string') return null;
  const by = { id: m.by.id, name: m.by.name };
  return { by, text: typeof m.text === 'string' && m.text ? m.text : `${by.name || 'A host'} muted you.` };
}

/** `typing_notice`'s fields in camelCase, with the action the page offers; null without a boolean `show`. */
export function typingNotice(m) {
  if (typeof m.show !== 'boolean') return null;
  return {
    show: m.show, text: typeof m.text === 'string' && m.text ? m.text : 'Your typing can be heard.',
    durationMs: Number.isFinite(m.duration_ms) ? m.duration_ms : 4000,
    action: m.show ? { ...MUTE_ACTION, label: typeof m.action === 'string' && m.action ? m.action : 'Mute' } : null,
  };
}

/**
 * A host's mute of participant `id`, checked before it is sent: the client (`may`, `joined`, `me`,
 * `participants`) must have `mute-users` from its welcome and be in the call, and `id` be someone else there.
 * @returns {{type: 'mute', id: string}}
 * @throws {MicCheckError} `not-allowed`, `not-joined` or `bad-option`
 */
export function muteRequest(id, client) {
  const { joined, me, participants } = client;
  if (!client.may('mute-users')) {
    throw new MicCheckError('not-allowed', 'only a host may mute others; this participant\'s role may not');
  }
  if (!joined || !me) throw new MicCheckError('not-joined', 'join the call before muting others');
  if (typeof id !== 'string' || !id) throw new MicCheckError('bad-option', 'muteParticipant needs a participant id');
  if (id === me) throw new MicCheckError('bad-option', 'to mute yourself, call setMuted(true)');
  if (participants && !participants.has(id)) {
    throw new MicCheckError('bad-option', `no participant ${id} in the call`);
  }
  return { type: 'mute', id };
}

/**
 * The client's side of the two server messages: `muted_by_host` turns the microphone off (cause `host`) and
 * says who; `typing_notice` is passed on. `hostMuted` is true from a host's mute until the user unmutes or
 * the connection is new (a new connection knows nothing of it).
 */
export class Moderation {
  /** @param {{setMuted(muted: boolean, cause: string): void, emit(type: string, detail: object): void}} client */
  constructor(client) {
    this.client = client;
    this.hostMuted = false;
    this.announcement = null;
  }

  /** A server message this handles; returns whether it was one (else an `error` event says what was wrong). */
  receive(m) {
    if (m.type === 'muted_by_host') {
      const detail = mutedByHost(m);
      if (!detail) return this.#bad('a "muted_by_host" message needs "by" with an "id" and a "name"');
      this.hostMuted = true;
      this.announcement = detail.text;
      this.client.setMuted(true, 'host');
      this.client.emit('mutedbyhost', detail);
      return true;
    }
    if (m.type === 'typing_notice') {
      const detail = typingNotice(m);
      if (!detail) return this.#bad('a "typing_notice" message needs "show" (boolean)');
      this.client.emit('typingnotice', detail);
      return true;
    }
    return false;
  }

  /** The microphone's mute changed: an unmute, or a mute of another cause, ends the host's. */
  muteChanged(muted, cause) {
    if (muted && cause === 'host') return;
    this.hostMuted = false;
    this.announcement = null;
  }

  /**
   * A `muted_notice` from the server, passed on as a `mutednotice` event with its action and, while a host's
   * mute holds, the host's sentence. None while push-to-talk's key is up; none after "don't show again"
   * unless a host muted (the server sends those anyway).
   */
  mutedNotice(m, cause, noticeOff) {
    if (m.show && ((noticeOff && cause !== 'host') || cause === 'push-to-talk')) return;
    this.client.emit('mutednotice', { ...m, cause, action: m.show ? UNMUTE_ACTION : null,
      announcement: m.show && cause === 'host' ? this.announcement : null });
  }

  /** A new connection (its welcome): the server there knows of no host's mute. */
  connected() { this.hostMuted = false; }

  #bad(message) {
    this.client.emit('error', { message });
    return true;
  }
}
