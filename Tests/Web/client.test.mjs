// MicCheckClient against a fake WebSocket and fake timers: reconnection with backoff, refusals said once,
// the version rule, the devices it reports, and the errors of bad input. `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';

import { MicCheckClient } from '../../Web/sdk/client.js';
import { FakeSocket } from './fake-socket.mjs';

const fakeCapture = { start: async () => {}, stop() {}, resume() {}, close() {} };
const track = () => ({ kind: 'audio', label: 'Fake mic', addEventListener() {}, stop() {} });
const streamWith = (tracks) => ({
  getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
  getTracks: () => tracks,
});

function client(options = {}) {
  FakeSocket.made = [];
  const c = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
    capture: fakeCapture, stream: streamWith([track()]), ...options });
  const seen = [];
  for (const type of ['connection', 'presence', 'mutednotice', 'welcome', 'error', 'microphone', 'speaking']) {
    c.addEventListener(type, (e) => seen.push([type, e.detail]));
  }
  return { c, seen };
}

test('connects to /v1/call with the call and token, reports its devices, and streams audio', async () => {
  const { c } = client({ token: 'tok en' });
  await c.start();
  const ws = FakeSocket.made[0];
  assert.equal(ws.url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=server&token=tok+en');
  ws.accept();
  assert.deepEqual(ws.texts(), [], 'nothing before the welcome says what this participant may send');
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  assert.deepEqual(ws.texts()[0], { type: 'devices', audio: true, video: false });
  c.setMuted(true);
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: false, video: false });
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio'] });
  c.setMuted(false);
  c.setVideo(true);
  assert.deepEqual(ws.texts().at(-1), { type: 'devices', audio: true, video: false }, 'the role sends no video');
  // One message a change: the same state again sends nothing.
  const count = () => ws.texts().filter((m) => m.type === 'devices').length;
  const before = count();
  c.setVideo(true);
  c.setMuted(false);
  assert.equal(count(), before, 'no devices message repeats the last one');
  c.setMuted(true);
  c.setMuted(true);
  assert.equal(count(), before + 1);
  c.close();
  assert.equal(c.state, 'closed');
});

test('a server that is gone: retries with backoff up to 10 s, says so, and rejoins when back', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { c, seen } = client();
  await c.start();
  FakeSocket.made[0].accept();
  FakeSocket.made[0].say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  c.join('Ada');
  const delays = [];
  for (let i = 0; i < 6; i++) {
    FakeSocket.made.at(-1).serverCloses(1006, '');
    await new Promise(setImmediate);
    const last = seen.filter(([type]) => type === 'connection').at(-1)[1];
    assert.equal(last.state, 'reconnecting');
    assert.match(last.message, /^Disconnected from the server\. Reconnecting in \d+ s…$/);
    delays.push(last.retryInMs);
    t.mock.timers.tick(last.retryInMs);
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 10000, 10000]);
  const back = FakeSocket.made.at(-1);
  back.accept();
  c.join('Ada');  // asked again before the welcome: still one join
  back.say({ type: 'welcome', id: 'me2', capabilities: ['send-audio', 'send-video'] });
  assert.deepEqual(back.texts().filter((m) => m.type === 'join'), [{ type: 'join', name: 'Ada' }]);
  back.serverCloses(1001, 'server restarting');
  await new Promise(setImmediate);
  assert.equal(seen.filter(([type]) => type === 'connection').at(-1)[1].retryInMs, 1000, 'reset after it opened');
  c.close();
});

test('a refusal is said once with its reason and never retried', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { c, seen } = client();
  await c.start();
  FakeSocket.made[0].accept();
  FakeSocket.made[0].serverCloses(4401, 'the join token has expired; ask for a new invitation');
  await new Promise(setImmediate);
  t.mock.timers.tick(60000);
  assert.equal(FakeSocket.made.length, 1);
  const states = seen.filter(([type]) => type === 'connection').map(([, d]) => d);
  assert.deepEqual(states.at(-1), { state: 'refused', code: 4401,
    message: 'This invitation cannot be used: the join token has expired; ask for a new invitation.' },
    'the server\'s own advice, not doubled');
  assert.equal(states.filter((s) => s.state === 'refused').length, 1);
});

const EXPIRED = 'the invitation expired; reconnect with a new one';
const connectionStates = (seen) => seen.filter(([type]) => type === 'connection').map(([, d]) => d);

test('a token function: asked at each try; an invitation that expires in the call is renewed and the call rejoined',
  async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    const given = ['first', 'second'];
    let asked = 0;
    const { c, seen } = client({ token: async () => { asked += 1; return given.shift(); } });
    await c.start();
    await new Promise(setImmediate);
    assert.equal(asked, 1);
    const first = FakeSocket.made[0];
    assert.equal(first.url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=server&token=first');
    first.accept();
    first.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
    c.setVideo(true);
    c.join('Ada');
    assert.deepEqual(first.texts().at(-1), { type: 'join', name: 'Ada' });
    first.serverCloses(4401, EXPIRED);
    await new Promise(setImmediate);
    const states = connectionStates(seen);
    assert.deepEqual(states.at(-1), { state: 'reconnecting', code: 4401, retryInMs: 1000, attempt: 1,
      message: `Disconnected from the server: ${EXPIRED}. Reconnecting in 1 s…` });
    assert.equal(states.filter((s) => s.state === 'refused').length, 0, 'no refusal');
    assert.equal(c.me, null);
    assert.equal(c.joined, true, 'still in the call for the page');
    t.mock.timers.tick(1000);
    await new Promise(setImmediate);
    assert.equal(asked, 2, 'a new token for the new connection');
    const second = FakeSocket.made[1];
    assert.equal(second.url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=server&token=second');
    second.accept();
    second.say({ type: 'welcome', id: 'me2', capabilities: ['send-audio', 'send-video'] });
    assert.deepEqual(second.texts(), [{ type: 'devices', audio: true, video: true }, { type: 'join', name: 'Ada' }],
      'the same devices, and joined again');
    assert.deepEqual(connectionStates(seen).slice(-2).map((s) => s.state), ['reconnecting', 'open']);
    c.close();
    assert.equal(c.state, 'closed');
  });

test('a string token: the invitation expiring in the call is a refusal with its reason, not retried', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { c, seen } = client({ token: 'only' });
  await c.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  c.join('Ada');
  ws.serverCloses(4401, EXPIRED);
  await new Promise(setImmediate);
  t.mock.timers.tick(60000);
  assert.equal(FakeSocket.made.length, 1);
  const states = connectionStates(seen);
  assert.deepEqual(states.at(-1), { state: 'refused', code: 4401,
    message: `This invitation cannot be used: ${EXPIRED}. Ask for a new link.` });
  assert.equal(states.filter((s) => s.state === 'refused').length, 1);
});

test('a token function: a token refused as the socket opens is a refusal; a function that fails is retried',
  async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    let asked = 0;
    const refused = client({ token: () => { asked += 1; return 'stale'; } });
    await refused.c.start();
    await new Promise(setImmediate);
    // A refused upgrade opens and closes at once, before the server says anything.
    FakeSocket.made[0].accept();
    FakeSocket.made[0].serverCloses(4401, 'the join token has expired');
    await new Promise(setImmediate);
    t.mock.timers.tick(60000);
    await new Promise(setImmediate);
    assert.equal(FakeSocket.made.length, 1, 'not retried');
    assert.equal(asked, 1);
    assert.deepEqual(connectionStates(refused.seen).at(-1), { state: 'refused', code: 4401,
      message: 'This invitation cannot be used: the join token has expired. Ask for a new link.' });

    const answers = [Promise.reject(new Error('the app\'s server is down')), Promise.resolve(''), 'good'];
    const failing = client({ token: () => answers.shift() });
    await failing.c.start();
    await new Promise(setImmediate);
    assert.equal(FakeSocket.made.length, 0);
    assert.deepEqual(connectionStates(failing.seen).at(-1), { state: 'reconnecting', retryInMs: 1000, attempt: 1,
      message: 'No invitation to connect with: the app\'s server is down. Reconnecting in 1 s…' });
    failing.c.start();  // asked to connect again while waiting: still one try at a time
    t.mock.timers.tick(1000);
    await new Promise(setImmediate);
    assert.equal(connectionStates(failing.seen).at(-1).message,
      'No invitation to connect with: the token function gave no token. Reconnecting in 2 s…');
    t.mock.timers.tick(2000);
    await new Promise(setImmediate);
    assert.equal(FakeSocket.made.length, 1);
    assert.equal(FakeSocket.made[0].url, 'ws://127.0.0.1:8080/v1/call?call=standup&analysis=server&token=good');
    failing.c.close();
    assert.equal(failing.c.state, 'closed');
    assert.throws(() => new MicCheckClient({ server: 'http://x', call: 'a', token: 42 }), { code: 'bad-option' });
  });

test('presence by the version rule; a gap asks for a snapshot; the notice waits while push-to-talk is up', async () => {
  const { c, seen } = client();
  await c.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  ws.say({ type: 'presence', version: 2, participants: [{ id: 'me', name: 'Me' }] });
  ws.say({ type: 'joined', version: 3, participant: { id: 'b', name: 'Bob', audio: true } });
  assert.deepEqual(c.others().map((p) => p.name), ['Bob']);
  ws.say({ type: 'left', version: 5, id: 'b' });
  assert.deepEqual(ws.texts().at(-1), { type: 'resync' });
  assert.equal(c.others().length, 1);
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  const notice = seen.filter(([type]) => type === 'mutednotice').at(-1)[1];
  assert.deepEqual(notice.action, { label: 'Unmute', key: 'm' });
  c.setMuted(true, 'push-to-talk');
  const before = seen.length;
  ws.say({ type: 'muted_notice', show: true, text: 'You are muted.', duration_ms: 2000 });
  assert.equal(seen.length, before, 'no notice while the push-to-talk key is up');
  ws.say({ type: 'microphone', on: true, level_db: -20, display: 0.6, speaking: true, warnings: [] });
  assert.deepEqual(seen.at(-1), ['speaking', { speaking: true }]);
  ws.say({ type: 'bogus' });
  ws.onmessage({ data: 'not json' });
  assert.deepEqual(seen.at(-1), ['error', { message: 'a message that is not JSON' }]);
  c.close();
});

test('bad input: a stream without audio, a bad call id, an unknown mute cause, a closed client', async () => {
  const { c } = client();
  await assert.rejects(c.setStream(streamWith([{ kind: 'video' }])), { code: 'no-audio-track' });
  await assert.rejects(c.setStream(null), { code: 'no-audio-track' });
  assert.throws(() => c.setMuted(true, 'sleepy'), { code: 'bad-option' });
  assert.throws(() => new MicCheckClient({ server: 'http://x', call: 'no spaces' }), { code: 'bad-call' });
  assert.throws(() => new MicCheckClient({ server: 'http://x', call: 'a', endpoint: 'rtp' }), { code: 'bad-option' });
  c.close();
  await assert.rejects(c.start(), { code: 'closed' });
});

test('/v1/vad: levels become microphone events, and muting is a session update', async () => {
  FakeSocket.made = [];
  const c = new MicCheckClient({ server: 'https://vad.example', WebSocket: FakeSocket, capture: fakeCapture,
    stream: streamWith([track()]) });
  const levels = [];
  c.addEventListener('microphone', (e) => levels.push(e.detail));
  await c.start();
  const ws = FakeSocket.made[0];
  assert.equal(ws.url, 'wss://vad.example/v1/vad');
  ws.accept();
  c.setMuted(true);
  assert.deepEqual(ws.texts().at(-1), { type: 'session.update', session: { muted: true } });
  ws.say({ type: 'level', audio_ms: 100, level_db: -25, speaking: false });
  assert.deepEqual(levels[0],
    { on: false, levelDb: -25, display: 0.5, speaking: false, notWorking: null, warnings: [] });
  c.close();
});

test('a listener\'s invitation: no microphone opened; a welcome without send-audio stops listening', async () => {
  const jwt = (claims) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
  const opened = [];
  const capture = { ...fakeCapture, start: async (s) => { opened.push(s); }, stop() { opened.push('stop'); } };
  // No stream given: the client would open a microphone of its own; a listener's does not even try.
  const { c } = client({ token: jwt({ call: 'standup', name: 'Lin', role: 'listener' }), stream: null, capture });
  // Node has no microphone: a try to open one would say so (`permission`, missing); a listener's makes none.
  const asked = [];
  c.addEventListener('permission', (e) => asked.push(e.detail));
  assert.equal(c.may('audio'), false);
  assert.equal(c.may('video'), false);
  await c.start();
  assert.equal(c.stream, null);
  assert.deepEqual(opened, []);
  assert.deepEqual(asked, [], 'no microphone asked for');
  const tokens = [[jwt({ role: 'speaker' }), true], ['not a token', true], [jwt({ role: 'listener' }), false]];
  for (const [token, may] of tokens) {
    const other = client({ token }).c;
    assert.equal(other.may('audio'), may, `${token}: an unreadable token leaves it to the welcome`);
    other.close();
  }
  // A role the welcome denies audio (an invitation given as a function): what was listened to stops.
  const { c: late } = client({ capture, token: async () => jwt({ role: 'listener' }) });
  await late.start();
  assert.ok(late.stream);
  await new Promise((resolve) => { setTimeout(resolve, 0); }); // the token function's answer, then the socket
  const ws = FakeSocket.made[0];
  ws.accept();
  let streamAtWelcome;
  late.addEventListener('welcome', () => { streamAtWelcome = late.stream; });
  ws.say({ type: 'welcome', id: 'me', capabilities: [] });
  assert.equal(streamAtWelcome, null, 'gone before the page hears of the welcome');
  assert.equal(late.stream, null);
  assert.equal(opened.at(-1), 'stop');
  late.close();
  c.close();
});
