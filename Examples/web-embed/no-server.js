// Acme Meet with no MicCheck server: a static page (python3 -m http.server) with MicCheck's SDK folder beside
// it. MicCheck's analysis runs in the page (miccheck.wasm in an AudioWorklet) and gives the meter, speaking,
// "You are muted.", the typing notice, "not working" and the microphone test; nothing is sent anywhere. The
// app's call (its own media server) is not MicCheck's: "Join the call" tells the client the page is in it,
// where the muted and typing notices belong.
//   bash scripts/build-wasm.sh
//   rm -rf Examples/web-embed/sdk && cp -r Web/sdk Examples/web-embed/sdk
//   python3 -m http.server 8000 --directory Examples/web-embed   # then open http://127.0.0.1:8000/no-server.html
import { CAPTURE_NOTE, MicCheckClient } from './sdk/miccheck.js';

const $ = (id) => document.getElementById(id);
const meter = document.querySelector('miccheck-meter');
const test = document.querySelector('miccheck-microphone-test');
const mutedNotice = document.querySelector('miccheck-muted-notice');
const typingNotice = document.querySelector('miccheck-typing-notice');

function problem(text) {
  $('problem').hidden = false;
  $('problem').textContent = text;
}

const client = new MicCheckClient({ endpoint: 'none' });
let inCall = false;
const draw = () => {
  $('mute').textContent = client.muted ? 'Unmute' : 'Mute';
  $('mute').setAttribute('aria-pressed', String(client.muted));
  $('call').textContent = inCall ? 'Leave the call' : 'Join the call';
  $('call').setAttribute('aria-pressed', String(inCall));
  test.available = !client.muted && !inCall && !!client.stream;
};

client.addEventListener('microphone', (e) => { meter.state = e.detail; });
client.addEventListener('speaking', (e) => {
  $('speaking').textContent = e.detail.speaking ? 'Speaking' : 'Not speaking';
});
client.addEventListener('microphonetest', (e) => { test.state = e.detail; });
client.addEventListener('mutednotice', (e) => {
  if (e.detail.show && inCall) mutedNotice.show(e.detail);
  else mutedNotice.hide();
});
client.addEventListener('typingnotice', (e) => {
  if (e.detail.show && inCall && !client.muted) typingNotice.show(e.detail);
  else if (!e.detail.show) typingNotice.hide();
});
client.addEventListener('permission', () => problem('MicCheck cannot hear a microphone: allow one for this page.'));
test.addEventListener('miccheck-test-microphone', () => {
  client.resume();
  client.testMicrophone().catch((error) => { test.state = { state: 'failed', message: error.message }; });
});
const toggleMute = () => {
  client.resume();
  client.setMuted(!client.muted);
  draw();
};
$('mute').addEventListener('click', toggleMute);
mutedNotice.addEventListener('miccheck-unmute', toggleMute);
mutedNotice.addEventListener('miccheck-muted-notice-off', () => client.mutedNoticeOff());
typingNotice.addEventListener('miccheck-mute', toggleMute);
$('call').addEventListener('click', () => {
  client.resume();
  inCall = !inCall;
  if (inCall) client.join('Acme guest');
  else client.leave();
  draw();
});
document.addEventListener('keydown', (e) => {
  // m toggles the microphone, unless a key is held with it or the user types somewhere.
  const typing = e.composedPath().some((el) => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
    || el instanceof HTMLSelectElement || el.isContentEditable);
  if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey && e.key.toLowerCase() === 'm') toggleMute();
});

$('privacy').textContent = CAPTURE_NOTE;
window.acme = { client };
client.start().then(draw, (error) => problem(`MicCheck could not start: ${error.message || error}`));
