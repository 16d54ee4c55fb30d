// "Test your microphone" in MicCheckClient, against a fake WebSocket, a fake capture that hands blocks to the
// client as the AudioWorklet does, and a fake player: the start message, the copy of the very blocks sent,
// the verdict, the playback and its end, cancels, refusals, and leaving mid-test. `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MicCheckClient } from '../../Web/sdk/client.js';
import { decode } from '../../Web/sdk/protocol.js';
import { FakeSocket as BaseSocket } from './fake-socket.mjs';

class FakeSocket extends BaseSocket {
  tests() { return this.texts().filter((m) => m.type === 'microphone_test'); }
  blocks() { return this.sent.filter((d) => d instanceof ArrayBuffer); }
}

// A player that records what it was asked to play and ends when the test says so.
function players() {
  const made = [];
  const make = (options) => {
    const p = {
      options, played: null, stopped: false, closed: false, end: null,
      play(samples, rate) {
        p.played = { samples: Int16Array.from(samples), rate };
        return new Promise((resolve) => { p.end = resolve; });
      },
      stop() { p.stopped = true; p.end?.(); },
      close() { p.closed = true; p.end?.(); },
    };
    made.push(p);
    return p;
  };
  return { made, make };
}

const track = () => ({ kind: 'audio', label: 'Fake mic', addEventListener() {}, stop() {} });
const streamWith = (tracks) => ({ getAudioTracks: () => tracks, getTracks: () => tracks });
// 20 ms of 16 kHz PCM, each block's samples its own (block n, sample i → n * 7 + i).
const block = (n) => Int16Array.from({ length: 320 }, (_, i) => (n * 7 + i) % 30000 - 15000).buffer;

const DONE = { type: 'microphone_test', state: 'done', verdict: 'clear',
  sentence: 'Your voice came through clearly: -23.7 dBFS while you spoke, 39.2 dB above the room\'s noise.',
  recorded_seconds: 2, speech_seconds: 1.2, speech_level_db: -23.7, noise_level_db: -62.9 };

// The client is closed when the test ends, passed or not (its keep-alive would hold node's loop open).
async function connected(t, options = {}) {
  FakeSocket.made = [];
  const capture = { start: async () => {}, stop() {}, resume() {}, close() {}, onBlock: null };
  const playback = players();
  const c = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket, capture,
    stream: streamWith([track()]), playback: playback.make, ...options });
  t.after(() => c.close());
  const events = [];
  c.addEventListener('microphonetest', (e) => events.push(e.detail));
  await c.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  let sentBlocks = 0;
  const speak = (n) => { for (let i = 0; i < n; i++) capture.onBlock(block(sentBlocks++)); };
  return { c, ws, events, speak, players: playback.made };
}

const states = (events) => events.map((e) => (e.state === 'recording' ? `recording ${e.secondsLeft}` : e.state));
const settled = (promise) => promise.then((v) => ['resolved', v], (e) => ['rejected', e]);

test('a test: the start message, a copy of the blocks sent, the verdict, the playback, then done', async (t) => {
  const { c, ws, events, speak, players } = await connected(t);
  const result = c.testMicrophone({ seconds: 2, sinkId: 'headset-1' });
  assert.deepEqual(ws.tests(), [{ type: 'microphone_test', action: 'start', seconds: 2 }]);
  assert.deepEqual(players.map((p) => p.options), [{ sinkId: 'headset-1' }], 'the player is made at the click');
  speak(10);  // sent before the server's answer: part of the test all the same
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 2 });
  speak(110);  // 2.4 s in all: the test keeps its first 2 s
  assert.deepEqual(states(events), ['recording 2', 'recording 1', 'recording 0']);
  assert.equal(players[0].played, null, 'nothing plays before the verdict');
  ws.say(DONE);
  assert.equal(events.at(-1).state, 'playing');
  assert.equal(events.at(-1).sentence, DONE.sentence);
  const { samples, rate } = players[0].played;
  assert.equal(rate, 16000);
  assert.equal(samples.length, 32000);
  const sent = new Int16Array(ws.blocks().slice(0, 100).flatMap((b) => [...new Int16Array(b)]));
  assert.deepEqual(samples, sent, 'the very samples sent, in order');
  players[0].end();
  const [how, verdict] = await settled(result);
  assert.equal(how, 'resolved');
  assert.deepEqual(verdict, { seconds: 2, verdict: 'clear', sentence: DONE.sentence, recordedSeconds: 2,
    speechSeconds: 1.2, speechLevelDb: -23.7, noiseLevelDb: -62.9, playedBack: true });
  assert.deepEqual(events.at(-1), { state: 'done', ...verdict });
  assert.ok(players[0].closed, 'the player and the copy are let go');
  // Another test may start now.
  const again = c.testMicrophone({ seconds: 1, playBack: false });
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 1 });
  ws.say({ ...DONE, verdict: 'too_quiet', sentence: 'Your voice came through too quietly.', speech_level_db: null });
  const quiet = await again;
  assert.equal(players.length, 1, 'no player with the speaker off');
  assert.deepEqual([quiet.verdict, quiet.speechLevelDb, quiet.playedBack], ['too_quiet', null, false]);
  // The verdict is on the test's whole length: the countdown ends at 0 with it.
  assert.deepEqual(states(events).slice(-3), ['recording 1', 'recording 0', 'done'],
    'no playing step without playback');
  c.close();
});

test('a browser that cannot make an AudioContext still gets the verdict, without playback', async (t) => {
  const { c, ws, events, speak } = await connected(t, { playback: () => { throw new Error('NotSupportedError'); } });
  const result = c.testMicrophone({ seconds: 1 });
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 1 });
  speak(50);
  ws.say(DONE);
  const verdict = await result;
  assert.deepEqual([verdict.verdict, verdict.playedBack], ['clear', false]);
  assert.deepEqual(states(events), ['recording 1', 'recording 0', 'done']);
});

test('cancel while recording: the server is told, the promise rejects, and late answers are not taken', async (t) => {
  const { c, ws, events, speak, players } = await connected(t);
  const first = settled(c.testMicrophone());
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 5 });
  speak(30);
  assert.equal(c.cancelMicrophoneTest(), true);
  const [how, error] = await first;
  assert.equal(how, 'rejected');
  assert.equal(error.code, 'test-cancelled');
  assert.deepEqual(ws.tests().at(-1), { type: 'microphone_test', action: 'cancel' });
  assert.deepEqual(events.at(-1), { state: 'cancelled', seconds: 5, message: 'The microphone test was cancelled.' });
  assert.ok(players[0].closed);
  assert.equal(c.cancelMicrophoneTest(), false, 'nothing left to cancel');
  // A new test at once: the first test's answers, which come before the new one's `recording`, are not its own.
  const second = c.testMicrophone({ seconds: 1 });
  ws.say({ type: 'microphone_test', state: 'cancelled' });
  ws.say(DONE);
  assert.equal(events.at(-1).state, 'cancelled', 'the old answers change nothing');
  assert.equal(players[1].played, null);
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 1 });
  speak(50);
  ws.say({ ...DONE, recorded_seconds: 1 });
  assert.equal(players[1].played.samples.length, 16000);
  assert.deepEqual(states(events).slice(-3), ['recording 1', 'recording 0', 'playing']);
  // Cancelled while it plays back: the sound stops and the verdict stands.
  c.cancelMicrophoneTest();
  assert.ok(players[1].closed);
  const verdict = await second;
  assert.deepEqual([verdict.verdict, verdict.playedBack], ['clear', false]);
  assert.equal(events.at(-1).state, 'done');

  // Cancelled before the server's `recording`, and another started: the first test's `recording` and
  // `cancelled` come first, and the second test goes on.
  settled(c.testMicrophone({ seconds: 1 }));
  c.cancelMicrophoneTest();
  const third = c.testMicrophone({ seconds: 1 });
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 1 });
  ws.say({ type: 'microphone_test', state: 'cancelled' });
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 1 });
  speak(50);
  ws.say(DONE);
  players.at(-1).end();
  assert.equal((await third).verdict, 'clear');
  c.close();
});

test('refused while muted, without a microphone, busy, in the call, unconnected, or for 60 s', async (t) => {
  const { c, ws, events } = await connected(t);
  c.setMuted(true);
  await assert.rejects(c.testMicrophone(), { code: 'muted', message: 'Turn your microphone on to test it.' });
  c.setMuted(false);
  await assert.rejects(c.testMicrophone({ seconds: 60 }), { code: 'bad-option' });
  await assert.rejects(c.testMicrophone({ seconds: '5' }), { code: 'bad-option' });
  await assert.rejects(c.testMicrophone({ seconds: 0.5 }), { code: 'bad-option' });
  const running = settled(c.testMicrophone());
  await assert.rejects(c.testMicrophone(), { code: 'test-busy' });
  c.cancelMicrophoneTest();
  await running;
  c.join('Ada');
  await assert.rejects(c.testMicrophone(), { code: 'in-call' });
  c.leave();
  ws.say({ type: 'welcome', id: 'me', capabilities: [] });
  await assert.rejects(c.testMicrophone(), { code: 'not-allowed' });
  assert.equal(ws.tests().filter((m) => m.action === 'start').length, 1, 'only the test that ran was started');
  assert.deepEqual(states(events), ['cancelled']);
  c.close();
  await assert.rejects(c.testMicrophone(), { code: 'closed' });

  // No microphone (the browser has none to give), and no connection yet.
  FakeSocket.made = [];
  const alone = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
    capture: { start: async () => {}, stop() {}, resume() {}, close() {} } });
  await assert.rejects(alone.testMicrophone(), { code: 'no-microphone' });
  await alone.setStream(streamWith([track()]));
  await assert.rejects(alone.testMicrophone(), { code: 'not-connected' });
  alone.close();
});

test('joining, leaving, muting, a new microphone or a lost connection mid-test end it', async (t) => {
  const { c, ws, events, speak } = await connected(t);
  const cases = [
    ['join', () => c.join('Ada'), 'test-cancelled', 'The microphone test stopped: you joined the call.'],
    ['leave', () => c.leave(), 'test-cancelled', 'The microphone test stopped: you left the call.'],
    ['mute', () => c.setMuted(true), 'test-cancelled', 'The microphone test stopped: your microphone was turned off.'],
    ['new stream', () => c.setStream(streamWith([track()])), 'test-cancelled',
      'The microphone test stopped: the microphone changed.'],
  ];
  for (const [what, act, code, message] of cases) {
    c.leave();
    c.setMuted(false);
    const result = settled(c.testMicrophone());
    ws.say({ type: 'microphone_test', state: 'recording', seconds: 5 });
    speak(20);
    await act();
    const [how, error] = await result;
    assert.deepEqual([how, error.code, error.message], ['rejected', code, message], what);
    assert.deepEqual(events.at(-1), { state: 'cancelled', seconds: 5, message }, what);
    assert.deepEqual(ws.tests().at(-1), { type: 'microphone_test', action: 'cancel' }, what);
  }
  c.leave();
  c.setMuted(false);
  const lost = settled(c.testMicrophone());
  ws.say({ type: 'microphone_test', state: 'recording', seconds: 5 });
  ws.serverCloses(1006, '');
  const [how, error] = await lost;
  assert.deepEqual([how, error.code], ['rejected', 'test-failed']);
  assert.equal(events.at(-1).state, 'failed');
  assert.match(events.at(-1).message, /connection to MicCheck was lost/);
  c.close();
});

test('closing the client mid-test cancels it; a server that never answers fails it in time', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { c, ws, events } = await connected(t);
  const closed = settled(c.testMicrophone());
  c.close();
  assert.deepEqual((await closed)[1].code, 'test-cancelled');
  assert.deepEqual(ws.tests().map((m) => m.action), ['start', 'cancel'], 'told before the socket closes');

  const other = await connected(t);
  const silent = settled(other.c.testMicrophone({ seconds: 3 }));
  t.mock.timers.tick(3000 + 7999);
  assert.equal(other.events.length, 0);
  t.mock.timers.tick(1);
  const [how, error] = await silent;
  assert.deepEqual([how, error.code], ['rejected', 'test-failed']);
  assert.deepEqual(other.ws.tests().at(-1), { type: 'microphone_test', action: 'cancel' });
  assert.equal(events.length, 1);
  other.c.close();
});

test('the server\'s microphone_test messages, decoded', () => {
  assert.deepEqual(decode('{"type":"microphone_test","state":"recording","seconds":3}'),
    { type: 'microphone_test', state: 'recording', seconds: 3 });
  const sentence = 'Your voice came through distorted, too loud.';
  assert.deepEqual(decode(JSON.stringify({ type: 'microphone_test', state: 'done', verdict: 'clipping', sentence,
    recorded_seconds: 5, speech_seconds: 2, speech_level_db: -3, noise_level_db: null, clipped_percent: 4.5,
    ceiling_db: -0.1 })),
  { type: 'microphone_test', state: 'done', verdict: 'clipping', sentence, recordedSeconds: 5, speechSeconds: 2,
    speechLevelDb: -3, noiseLevelDb: null, clippedPercent: 4.5, ceilingDb: -0.1 });
  assert.throws(() => decode('{"type":"microphone_test","state":"done","sentence":"x"}'), /needs "verdict"/);
  assert.throws(() => decode('{"type":"microphone_test"}'), /needs "state"/);
});
