// Speaking statements across another media server's channel (statements.js), on a fake clock and timers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RemoteSpeaking, SPEAKING_STATEMENT, stateSpeaking }
  from '../../Web/sdk/statements.js';

// setInterval and clearInterval on a clock the test moves.
function fakeTimers() {
  const timers = new Map();
  let next = 1;
  const clock = {
    now: 0,
    setInterval: (f, ms) => { timers.set(next, { f, ms, due: clock.now + ms }); return next++; },
    clearInterval: (id) => timers.delete(id),
    advance(ms) {
      const end = clock.now + ms;
      for (;;) {
        const due = [...timers.values()].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
        if (!due) break;
        clock.now = due.due;
        due.due += due.ms;
        due.f();
      }
      clock.now = end;
    },
    get running() { return timers.size; },
  };
  return clock;
}

const statement = (speaking) => JSON.stringify({ type: SPEAKING_STATEMENT, speaking });

test('a page says its speaking on each change and every 0.4 s; muted, it says it does not speak', () => {
  const clock = fakeTimers();
  const client = Object.assign(new EventTarget(), { speaking: false, muted: false });
  const sent = [];
  const stop = stateSpeaking(client, (text) => sent.push(JSON.parse(text).speaking), clock);
  assert.deepEqual(sent, [false], 'said at once');
  client.speaking = true;
  client.dispatchEvent(new Event('speaking'));
  assert.deepEqual(sent, [false, true]);
  clock.advance(800);
  assert.deepEqual(sent, [false, true, true, true], 'again every 0.4 s');
  client.muted = true;
  client.dispatchEvent(new Event('mutechange'));
  assert.equal(sent.at(-1), false, 'muted: nobody hears it, so it does not speak for the others');
  stop();
  clock.advance(5000);
  client.dispatchEvent(new Event('speaking'));
  assert.equal(sent.length, 5, 'nothing after stop');
  assert.equal(clock.running, 0);
});

test('a channel that throws (not open yet) does not stop the statements', () => {
  const clock = fakeTimers();
  const client = Object.assign(new EventTarget(), { speaking: true, muted: false });
  let open = false;
  const sent = [];
  stateSpeaking(client, (text) => { if (!open) throw new Error('not open'); sent.push(text); }, clock);
  open = true;
  clock.advance(400);
  assert.equal(sent.length, 1);
});

test('the others: a statement starts and ends speaking, once each; other messages are the app\'s', () => {
  const clock = fakeTimers();
  const changes = [];
  const r = new RemoteSpeaking((id, s) => changes.push([id, s]), { ...clock, now: () => clock.now });
  assert.equal(r.heard('7', statement(true)), true);
  assert.equal(r.heard('7', statement(true)), true);
  assert.equal(r.speaking('7'), true);
  assert.equal(r.heard('7', '{"type":"chat","text":"hi"}'), false);
  assert.equal(r.heard('7', 'not json'), false);
  assert.equal(r.heard('7', JSON.stringify({ type: SPEAKING_STATEMENT, speaking: 'yes' })), false);
  assert.equal(r.heard('7', new ArrayBuffer(4)), false);
  assert.equal(r.heard('7', statement(false) + ' '.repeat(300)), false, 'longer than any statement');
  assert.equal(r.speaking('7'), true, 'nothing malformed changes it');
  r.heard('7', statement(false));
  assert.deepEqual(changes, [['7', true], ['7', false]]);
  const long = 'x'.repeat(100);
  r.heard(long, statement(true));
  assert.equal(r.speaking(long), true, 'a long id is the same person in heard and speaking');
  r.forget(long);
  assert.equal(r.speaking(long), false);
  assert.deepEqual(changes.at(-1), ['x'.repeat(64), false], 'forget ends the one heard');
});

test('a page that stops saying anything stops speaking after holdMs; one that keeps saying it does not', () => {
  const clock = fakeTimers();
  const changes = [];
  const r = new RemoteSpeaking((id, s) => changes.push([id, s, clock.now]), { ...clock, now: () => clock.now });
  assert.equal(r.holdMs, 1200);
  r.heard('frozen', statement(true));
  r.heard('talker', statement(true));
  for (let t = 0; t < 12; t++) {
    clock.advance(400);
    r.heard('talker', statement(true));
  }
  const ended = changes.find(([id, s]) => id === 'frozen' && !s);
  assert.ok(ended, 'the frozen page ended');
  assert.ok(ended[2] > 1200 && ended[2] <= 1440, `ended at ${ended[2]} ms`);
  assert.equal(r.speaking('talker'), true);
  r.forget('talker');
  assert.deepEqual(changes.at(-1).slice(0, 2), ['talker', false]);
  assert.equal(clock.running, 0, 'no timer while nobody speaks');
  r.heard('x', statement(true));
  r.close();
  assert.deepEqual(changes.at(-1).slice(0, 2), ['x', false]);
  assert.equal(clock.running, 0);
});

test('statements carry the sender\'s clock: a frozen page\'s late backlog ends maxAgeMs after it was said', () => {
  const clock = fakeTimers();
  const changes = [];
  const r = new RemoteSpeaking((id, s) => changes.push([id, s, clock.now]), { ...clock, now: () => clock.now });
  assert.equal(r.maxAgeMs, 2000);
  // The sender's clock is far from ours (another machine); its statements take 30 to 60 ms.
  const offset = 5_000_000;
  const said = (speaking, at) => JSON.stringify({ type: SPEAKING_STATEMENT, speaking, at: at + offset });
  for (let t = 0; t < 4000; t += 400) {
    clock.advance(t + 30 + (t % 800 ? 30 : 0) - clock.now);
    r.heard('reader', said(true, t));
  }
  assert.equal(r.speaking('reader'), true, 'an offset clock alone changes nothing');
  // It froze after saying it speaks at 4000, 4400 and 4800 ms; the three arrive together at 6500 ms, 1.7 s late.
  // Its ring went 1.2 s after the last statement before them; the late ones bring it back until 2 s after the
  // last was said (the price of keeping a steady speaker's ring on a page that runs late: see the next test).
  clock.advance(6500 - clock.now);
  for (const t of [4000, 4400, 4800]) r.heard('reader', said(true, t));
  clock.advance(7100 - clock.now);
  assert.equal(r.speaking('reader'), false, 'said 2.3 s ago');
  const reader = changes.filter(([id]) => id === 'reader').map(([, s, at]) => [s, at]);
  assert.deepEqual(reader.map(([s]) => s), [true, false, true, false]);
  assert.ok(reader[1][1] <= 3630 + 1200 + 240, `off at ${reader[1][1]} ms: 1.2 s after the last statement came`);
  assert.equal(reader[2][1], 6500);
  assert.ok(reader[3][1] > 4830 + 2000 && reader[3][1] <= 4830 + 2000 + 240,
    `off again at ${reader[3][1]} ms: 2 s after the last was said, not 1.2 s after it came`);
  // A statement 0.9 s late holds what is left of the 2 s after it was said, at most 1.2 s after it came.
  clock.advance(10_000 - clock.now);
  r.heard('reader', said(true, 10_000 - 30 - 900));
  clock.advance(1000);
  assert.equal(r.speaking('reader'), true, 'said 1.9 s ago');
  clock.advance(400);
  assert.equal(r.speaking('reader'), false, 'said 2.3 s ago by now');
  // One 2.1 s late says nothing.
  r.heard('reader', said(true, clock.now - 30 - 2100));
  assert.equal(r.speaking('reader'), false);
});

test('a receiver whose own page runs 1.5 s late keeps a steady speaker\'s ring on', () => {
  // Fast at first (30 ms), then every statement reaches the page's code 1.5 s after it was said, for 10 s.
  const run = (options) => {
    const clock = fakeTimers();
    const changes = [];
    const r = new RemoteSpeaking((id, s) => changes.push([s, clock.now]),
      { ...clock, now: () => clock.now, ...options });
    const said = (at) => JSON.stringify({ type: SPEAKING_STATEMENT, speaking: true, at });
    for (let t = 0; t < 2000; t += 400) { clock.advance(t + 30 - clock.now); r.heard('talker', said(t)); }
    for (let t = 2000; t < 12_000; t += 400) { clock.advance(t + 1500 - clock.now); r.heard('talker', said(t)); }
    return { changes, speaking: r.speaking('talker') };
  };
  // The jump leaves 1.9 s without a statement (off); from the first late one on, the ring stays.
  const { changes, speaking } = run({});
  assert.deepEqual(changes.map(([s]) => s), [true, false, true], 'on, off in the jump, then on for good');
  assert.equal(changes.at(-1)[1], 3500);
  assert.equal(speaking, true);
  // Held 1.2 s from when it was said, each statement 1.5 s old says nothing: the ring never comes back.
  const strict = run({ maxAgeMs: 1200 });
  assert.deepEqual(strict.changes.map(([s]) => s), [true, false]);
});

test('a lasting change (a clock set back) is learnt within 32 statements; a stalled backlog is not', () => {
  const clock = fakeTimers();
  const r = new RemoteSpeaking(() => {}, { ...clock, now: () => clock.now });
  const said = (at) => JSON.stringify({ type: SPEAKING_STATEMENT, speaking: true, at });
  let t = 0;
  const step = (offset) => { clock.advance(400); t += 400; r.heard('a', said(t + offset)); };
  for (let i = 0; i < 10; i++) step(0);
  assert.equal(r.speaking('a'), true);
  // The sender's clock is set back 3 s: its statements look 3 s late until the window has moved past the old ones.
  step(-3000);
  assert.equal(r.speaking('a'), false, 'a statement 3 s later than the fastest');
  let learnt = 0;
  for (let i = 1; i <= 40 && !r.speaking('a'); i++) { step(-3000); learnt = i; }
  assert.ok(r.speaking('a') && learnt <= 32, `learnt after ${learnt} statements`);
  // The media server stalls 12 s, and the page freezes 1.2 s into it: its last three statements come at the end
  // of the stall, together, and none of them holds.
  clock.advance(12_000);
  for (let k = 1; k <= 3; k++) r.heard('a', said(t + 400 * k - 3000));
  assert.equal(r.speaking('a'), false, 'the backlog came more than 10 s late');
  // Without a clock (an older page): held from arrival.
  r.heard('b', statement(true));
  clock.advance(1000);
  assert.equal(r.speaking('b'), true);
  clock.advance(500);
  assert.equal(r.speaking('b'), false);
});

test('stateSpeaking puts its page\'s clock on each statement', () => {
  const clock = fakeTimers();
  const client = Object.assign(new EventTarget(), { speaking: true, muted: false });
  const sent = [];
  let t = 1234.4;
  stateSpeaking(client, (text) => sent.push(JSON.parse(text)), { ...clock, now: () => t });
  t = 1634.6;
  clock.advance(400);
  assert.deepEqual(sent.map((s) => s.at), [1234, 1635]);
  assert.ok(sent.every((s) => s.speaking === true && s.type === SPEAKING_STATEMENT));
});
