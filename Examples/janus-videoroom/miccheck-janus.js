// MicCheck in Janus's own VideoRoom demo (Debian's janus-demos, videoroomtest.html), with no MicCheck server:
// MicCheck's analysis runs in the page (miccheck.wasm in an AudioWorklet) on the audio track Janus sends, and
// speaking travels as each page's own statement over Janus's data channels. The three integration points:
//   1. the local stream: the page's audio track (videoroom.patch calls localTrack), analysed as a clone, so that
//      Janus's mute (the track disabled) silences what is sent and not what MicCheck hears;
//   2. the app's mute: read from that track, whoever changed it (Janus's Mute button, MicCheck's notices);
//   3. the remote tiles: Janus's own panels (#videoremoteN), ringed while their page says it speaks.
// Before joining, the meter and "Test your microphone" use a microphone MicCheck opens when Start is clicked.
import { MicCheckClient, RemoteSpeaking, stateSpeaking } from './sdk/miccheck.js';

// Janus's page has five remote panels; the patch loops over `slots` and the missing ones are made here.
const SLOTS = 16;
const NOTICE_OFF = 'miccheck-janus-notice-off';
// Janus's page reloads when it loses its server (a restart): a person who was muted stays muted after it.
const WAS_MUTED = 'miccheck-janus-muted';

const client = new MicCheckClient({ endpoint: 'none' });
let sent = null;
let joined = false;
let started = false;
let stopStating = null;
const others = new RemoteSpeaking(() => drawRings());

// The page's globals (videoroomtest.js: `var sfutest`, `feeds`, `myid`, `toggleMute`).
const page = () => /** @type {any} */ (window);

function el(tag, attributes = {}) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

const bar = el('div', { id: 'miccheck', class: 'miccheck-bar', hidden: '' });
const meter = el('miccheck-meter');
const test = el('miccheck-microphone-test');
const mutedNotice = el('miccheck-muted-notice');
const typingNotice = el('miccheck-typing-notice');
const problem = el('p', { id: 'miccheck-problem', role: 'alert', hidden: '' });
bar.append(meter, test, problem);

function addPanels() {
  const fifth = document.getElementById('videoremote5')?.closest('.col-md-4');
  if (!fifth) return;
  let row = fifth.parentElement;
  for (let i = 6; i < SLOTS; i++) {
    if (document.getElementById(`videoremote${i}`)) continue;
    if ((i - 1) % 3 === 2) {
      const next = el('div', { class: 'row' });
      row.after(next);
      row = next;
    }
    const copy = /** @type {HTMLElement} */ (fifth.cloneNode(true));
    copy.querySelector('#remote5').id = `remote${i}`;
    copy.querySelector('#videoremote5').id = `videoremote${i}`;
    copy.querySelector('.panel-title').firstChild.textContent = `Remote Video #${i} `;
    row.append(copy);
  }
}

const panelOf = (id) => document.getElementById(id)?.closest('.panel');

function ring(panel, speaking) {
  // Only a change touches the page: this runs ten times a second for every panel.
  if (!panel || panel.dataset.speaking === String(speaking)) return;
  panel.classList.toggle('miccheck-speaking', speaking);
  panel.dataset.speaking = String(speaking);
}

// Each remote panel rings while its feed's page says it speaks; the own panel while this page speaks, unmuted.
function drawRings() {
  const feeds = page().feeds || [];
  for (let i = 1; i < SLOTS; i++) {
    const feed = feeds[i];
    ring(panelOf(`videoremote${i}`), !!feed && others.speaking(feed.rfid));
  }
  ring(panelOf('videolocal'), client.speaking && !client.muted && joined);
}

// The app's mute is the track Janus sends: disabled is muted, whoever disabled it.
function follow() {
  const muted = !!sent && sent.readyState === 'live' && !sent.enabled;
  if (muted !== client.muted) client.setMuted(muted);
  // Kept for a reload, written when it differs (this runs ten times a second).
  const kept = muted ? '1' : '0';
  if (sent && sessionStorage.getItem(WAS_MUTED) !== kept) sessionStorage.setItem(WAS_MUTED, kept);
  const nowJoined = page().myid !== null && page().myid !== undefined && !!sent;
  if (nowJoined !== joined) {
    joined = nowJoined;
    if (joined) {
      client.join(page().myusername || 'Janus');
      stopStating = stateSpeaking(client, (text) => page().sfutest.data({ text, error: () => {} }));
    } else {
      stopStating?.();
      client.leave();
    }
  }
  const available = !joined && !client.muted && !!client.stream;
  if (test.available !== available) test.available = available;
  drawRings();
}

function say(text) {
  problem.hidden = false;
  problem.textContent = text;
}

async function start() {
  if (started) return;
  started = true;
  bar.hidden = false;
  client.resume();
  try {
    await client.start();
  } catch (error) {
    say(`MicCheck could not start: ${error.message || error}`);
  }
}

const janus = {
  slots: SLOTS,
  client,
  others,
  /** The audio track Janus sends (null before the page publishes). */
  get track() { return sent; },

  /** videoroomtest.js's onlocaltrack: the page's own audio track, added or removed. */
  localTrack(track, on) {
    if (track.kind !== 'audio') return;
    if (on) {
      sent = track;
      // MicCheck hears a clone, enabled whatever the sent track is: muted, the room is still heard.
      const heard = track.clone();
      heard.enabled = true;
      // Muted before the page reloaded: mute again, through Janus's own control, before anybody hears it.
      if (sessionStorage.getItem(WAS_MUTED) === '1' && track.enabled) {
        page().sfutest?.muteAudio();
        // Janus's page draws its Mute button after this callback, as "Mute": say what it is.
        setTimeout(() => {
          const button = document.getElementById('mute');
          if (button && page().sfutest?.isAudioMuted()) button.textContent = 'Unmute';
        });
      }
      client.setStream(new MediaStream([heard])).catch((e) => say(e.message));
    } else if (sent === track) {
      sent = null;
      client.openMicrophone();
    }
    follow();
  },

  /** A subscriber's data channel: a remote page's statement (anything else on the channel is left alone). */
  heard(remoteFeed, data) {
    if (remoteFeed && remoteFeed.rfid !== undefined) others.heard(remoteFeed.rfid, data);
  },
};
page().miccheckJanus = janus;

client.addEventListener('microphone', (e) => { meter.state = e.detail; });
client.addEventListener('speaking', () => drawRings());
client.addEventListener('microphonetest', (e) => { test.state = e.detail; });
client.addEventListener('mutednotice', (e) => {
  if (e.detail.show && joined && sessionStorage.getItem(NOTICE_OFF) !== '1') mutedNotice.show(e.detail);
  else mutedNotice.hide();
});
client.addEventListener('typingnotice', (e) => {
  if (e.detail.show && joined && !client.muted) typingNotice.show(e.detail);
  else if (!e.detail.show) typingNotice.hide();
});
client.addEventListener('permission', (e) => {
  say(e.detail.message || 'MicCheck cannot hear a microphone: allow one for this page.');
});
test.addEventListener('miccheck-test-microphone', () => {
  client.resume();
  client.testMicrophone().catch((error) => { test.state = { state: 'failed', message: error.message }; });
});
// MicCheck's notices mute and unmute through Janus's own control, so that the page's button stays true.
const toggle = () => page().toggleMute?.();
mutedNotice.addEventListener('miccheck-unmute', toggle);
mutedNotice.addEventListener('miccheck-muted-notice-off', () => {
  sessionStorage.setItem(NOTICE_OFF, '1');
  client.mutedNoticeOff();
});
typingNotice.addEventListener('miccheck-mute', toggle);

const style = el('style');
style.textContent = `
  .miccheck-bar { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; margin: 0 0 1em; }
  .miccheck-bar miccheck-meter { flex: 1 1 16em; }
  .panel.miccheck-speaking { box-shadow: 0 0 0 4px #2e7d32; }
`;
document.head.append(style);

function mount() {
  document.querySelector('.page-header')?.after(bar);
  document.body.append(mutedNotice, typingNotice);
  addPanels();
  document.getElementById('start')?.addEventListener('click', start);
  setInterval(follow, 100);
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
else mount();
