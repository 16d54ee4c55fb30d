// The client's push-to-talk cause, a host's mute (asking for one and being muted by one) and the typing notice,
// against a fake WebSocket. `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MicCheckClient } from '../../Web/sdk/client.js';
import { FakeSocket } from './fake-socket.mjs';
import {
  devicesMessage, muteRequest, typingNotice,
} from '../../Web/sdk/moderation.js';

const fakeCapture = { start: async () => {}, stop() {}, resume() {}, close() {} };
const stream = { getAudioTracks: () => [{ kind: 'audio', label: 'Mic', addEventListener() {}, stop() {} }] };
const TYPES = ['mutednotice', 'mutedbyhost', 'typingnotice', 'error', 'mutechange'];

async function joined(capabilities) {
  FakeSocket.made = [];
  const c = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
    capture: fakeCapture, stream });
  const seen = [];
  for (const type of TYPES) c.addEventListener(type, (e) => seen.push([type, e.detail]));
  await c.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.say({ type: 'welcome', id: 'me', capabilities });
  c.join('Ada');
  ws.say({ type: 'presence', version: 1, participants: [{ id: 'me', name: 'Ada', audio: true },
    { id: 'bob', name: 'Bob', audio: true }] });
  return { c, ws, seen, of: (type) => seen.filter(([t]) => t === type).map(([, d]) => d) };
}

test('push-to-talk: the devices message carries the cause; a self mute does not, and an unmute neither', async () => {
  const { c, ws, of } = await joined(['send-audio', 'send-video']);
  c.setMuted(true, 'push-to-talk');
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: false, video: false, cause: 'push-to-talk' });
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  assert.equal(of('mutednotice').length, 0, 'no notice while the key is up');
  c.setMuted(false);
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: true, video: false });
  c.setMuted(true);
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: false, video: false });
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  assert.deepEqual(of('mutednotice')[0].action, { label: 'Unmute', key: 'm' });
  assert.equal(of('mutednotice')[0].announcement, null);
  c.close();
});

test('a host mutes another: the mute message; a non-host, a self-mute and a stranger are refused here', async () => {
  const host = await joined(['send-audio', 'send-video', 'mute-users']);
  assert.equal(host.c.may('mute-users'), true);
  host.c.muteParticipant('bob');
  assert.deepEqual(host.ws.texts().at(-1), { type: 'mute', id: 'bob' });
  assert.throws(() => host.c.muteParticipant('me'), { name: 'MicCheckError', code: 'bad-option' });
  assert.throws(() => host.c.muteParticipant('zed'), { code: 'bad-option', message: 'no participant zed in the call' });
  assert.throws(() => host.c.muteParticipant(''), { code: 'bad-option' });
  // The server's refusal (a participant who left meanwhile) comes back as an error event.
  host.ws.say({ type: 'error', message: 'no participant bob in the call' });
  assert.deepEqual(host.of('error').at(-1), { message: 'no participant bob in the call' });
  host.c.leave();
  assert.throws(() => host.c.muteParticipant('bob'), { code: 'not-joined' });
  host.c.close();

  const speaker = await joined(['send-audio', 'send-video']);
  assert.equal(speaker.c.may('mute-users'), false);
  assert.equal(speaker.c.may('audio'), true);
  const before = speaker.ws.sent.length;
  assert.throws(() => speaker.c.muteParticipant('bob'),
    { code: 'not-allowed', message: 'only a host may mute others; this participant\'s role may not' });
  assert.equal(speaker.ws.sent.length, before, 'nothing sent');
  speaker.c.close();
  const early = new MicCheckClient({ server: 'http://x', call: 'a', WebSocket: FakeSocket, capture: fakeCapture });
  assert.equal(early.may('mute-users'), false, 'before the welcome nobody may mute others');
  assert.equal(early.may('audio'), true);
});

test('muted by a host: the microphone goes off (cause host), the event says who, the notice names them', async () => {
  const { c, ws, of } = await joined(['send-audio', 'send-video']);
  c.mutedNoticeOff();
  const sent = ws.sent.length;
  ws.say({ type: 'muted_by_host', by: { id: 'g', name: 'Grace' }, text: 'Grace muted you.' });
  assert.equal(c.muted, true);
  assert.equal(c.muteCause, 'host');
  assert.deepEqual(of('mutedbyhost'), [{ by: { id: 'g', name: 'Grace' }, text: 'Grace muted you.' }]);
  assert.deepEqual(of('mutechange').at(-1), { muted: true, cause: 'host' });
  // The server turned the audio off already: the devices message leaves it out (an audio: false would
  // make the mute the user's own, and "don't show again" would silence it).
  assert.deepEqual(ws.texts().slice(sent - ws.sent.length), [{ type: 'devices', video: false }]);
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  const notice = of('mutednotice').at(-1);
  assert.equal(notice.text, 'You are muted.', 'shown although the user chose "don\'t show again"');
  assert.equal(notice.announcement, 'Grace muted you.');
  assert.deepEqual(notice.action, { label: 'Unmute', key: 'm' });
  c.unmute();
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: true, video: false });
  c.setMuted(true);
  const count = of('mutednotice').length;
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  assert.equal(of('mutednotice').length, count, 'the user\'s own mute: "don\'t show again" holds again');
  ws.say({ type: 'muted_by_host', by: { id: 'g' } });
  assert.match(of('error').at(-1).message, /muted_by_host/);
  c.close();
});

test('a host\'s mute then a new connection: the new server is told audio false', async () => {
  const { c, ws } = await joined(['send-audio']);
  ws.say({ type: 'muted_by_host', by: { id: 'g', name: 'Grace' }, text: 'Grace muted you.' });
  ws.say({ type: 'welcome', id: 'me2', capabilities: ['send-audio'] });
  const devices = ws.texts().filter((m) => m.type === 'devices');
  assert.deepEqual(devices.at(-1), { type: 'devices', audio: false, video: false });
  assert.equal(c.muteCause, 'host', 'still muted, and still by the host as far as the page says');
  c.close();
});

test('the typing notice: shown and hidden as the server says, with the Mute action', async () => {
  const { c, ws, of } = await joined(['send-audio']);
  ws.say({ type: 'typing_notice', show: true, text: 'Your typing can be heard.', action: 'Mute', duration_ms: 4000 });
  ws.say({ type: 'typing_notice', show: false, text: 'Your typing can be heard.', action: 'Mute', duration_ms: 4000 });
  assert.deepEqual(of('typingnotice'), [
    { show: true, text: 'Your typing can be heard.', durationMs: 4000, action: { label: 'Mute', key: 'm' } },
    { show: false, text: 'Your typing can be heard.', durationMs: 4000, action: null },
  ]);
  ws.say({ type: 'typing_notice', text: 'no show' });
  assert.match(of('error').at(-1).message, /typing_notice/);
  assert.equal(typingNotice({ show: true }).text, 'Your typing can be heard.');
  c.close();
});

test('devicesMessage and muteRequest alone', () => {
  const client = (o) => ({ muted: false, muteCause: null, stream: {}, video: true, may: () => true, ...o });
  assert.deepEqual(devicesMessage(client({}), false), { type: 'devices', audio: true, video: true });
  assert.deepEqual(devicesMessage(client({ stream: null }), false), { type: 'devices', audio: false, video: true });
  assert.deepEqual(devicesMessage(client({ muted: true, muteCause: 'host' }), false),
    { type: 'devices', audio: false, video: true }, 'a host\'s mute on an earlier connection');
  assert.deepEqual(devicesMessage(client({ muted: true, muteCause: 'host' }), true), { type: 'devices', video: true });
  assert.throws(() => muteRequest('b', client({ may: () => false })), { code: 'not-allowed' });
  assert.deepEqual(muteRequest('b', client({ joined: true, me: 'a', participants: null })), { type: 'mute', id: 'b' });
});
