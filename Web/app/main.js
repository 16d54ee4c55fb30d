// MicCheck's own lobby and call page, built on the client (sdk/client.js) and the components
// (sdk/components.js) as any app would: the server decides the microphone check, "You are muted." and who is
// speaking; this page captures, draws, and connects to the others over WebRTC (app/mesh.js).
import { MicCheckClient } from '../sdk/client.js';
import { CAPTURE_NOTE, CAPTURE_NOTE_SERVER } from '../sdk/microphone.js';
import { checkedName, ViewFactory } from '../sdk/components.js';
import { callOfAddress } from './address.js';
import { wireCallFeatures } from './call-features.js';
import { Devices } from './devices.js';
import { Mesh } from './mesh.js';
import { Prefs } from './prefs.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const { call, fresh } = callOfAddress(location, history);
const prefs = new Prefs(call);
// Audio processing stays on for people; tests with a file as the microphone turn it off.
const processing = params.get('audio_processing') !== 'off';
// The microphone is analysed in the page (MicCheck's WebAssembly) unless the address asks the server to.
const analysis = params.get('analysis') === 'server' ? 'server' : 'device';
const client = new MicCheckClient({ call, token: params.get('token'), analysis,
  microphone: { deviceId: prefs.devices.audioinput, processing } });
const factory = new ViewFactory();
const view = {
  lobby: factory.makeLobbyView(), grid: factory.makeCallGridView(), controls: factory.makeCallControlsView(),
  notice: factory.makeMutedNoticeView(), prompt: factory.makePermissionsPromptView(),
};
const FRESH = 'A new call: share this page\'s address to invite others.';
const page = { joined: false, status: fresh ? FRESH : '', deviceNote: '', notWorking: null,
  denied: { microphone: false, camera: false } };
const mesh = new Mesh(client, () => drawCall());
const devices = new Devices(prefs, (note) => { page.deviceNote = note; drawLobby(); },
  () => { mesh.setTracks({ video: devices.camera?.getVideoTracks()[0] ?? null }); drawAll(); });
const features = wireCallFeatures({ client, devices, factory, joined: () => page.joined, micOn: () => on('audio'),
  setMic: (value) => { prefs.devices.audio = value; applyToggles(); }, apply: () => applyToggles(), drawAll });

// For tests and the browser's console: the page's client, its peers, and the stream it sends.
window.miccheck = {
  client, mesh, devices,
  get me() { return client.me; },
  get peers() { return mesh.peers; },
  get stream() {
    return new MediaStream([...(client.stream?.getAudioTracks() ?? []), ...(devices.camera?.getVideoTracks() ?? [])]);
  },
};

const may = (kind) => client.may(kind);
// A toggle is on when the user wants it, the invitation allows it, and the device is there.
function on(kind) {
  if (!prefs.devices[kind]) return false;
  if (kind === 'audio') return may('audio') && !page.denied.microphone && !!client.stream;
  if (kind === 'video') return may('video') && !page.denied.camera && !!devices.camera;
  return true;
}
const settings = () => ({ audio: on('audio'), video: on('video'), speaker: prefs.devices.speaker });

function applyToggles() {
  // In push-to-talk the microphone is live while Space is held; a host's mute stays the host's.
  const { live, cause } = features.microphone(on('audio'));
  client.setMuted(!live, cause);
  client.setVideo(on('video'));
  mesh.setAudioEnabled(live);
  for (const t of devices.camera?.getVideoTracks() ?? []) t.enabled = on('video');
  drawAll();
}

function drawLobby() {
  view.lobby.state = {
    call, settings: settings(), allowed: { audio: may('audio'), video: may('video') }, devices: devices.lists,
    chosen: { audioinput: prefs.devices.audioinput, videoinput: prefs.devices.videoinput,
      audiooutput: prefs.devices.audiooutput },
    others: client.others(), selfStream: devices.camera, deviceNote: page.deviceNote,
    status: page.status, joinDisabled: client.state === 'refused',
    privacy: client.analysis === 'server' ? CAPTURE_NOTE_SERVER : CAPTURE_NOTE,
  };
}

function drawCall() {
  if (!page.joined) return;
  const participants = [...client.participants.values()];
  view.grid.update(participants.map((p) => (p.id === client.me ? { ...p, self: true } : p)), {
    me: client.me, speakerOn: prefs.devices.speaker, sinkId: prefs.devices.audiooutput, mayMute: may('mute-users'),
    streamOf: (id) => (id === client.me ? devices.camera : mesh.streamOf(client.participants.get(id))),
  });
  view.controls.state = { ...settings(), allowed: { audio: may('audio'), video: may('video') },
    ...features.controls() };
  // In the call too, a microphone that delivers nothing is said (the lobby's meter says it before).
  $('call-status').textContent = page.status || client.microphone?.notWorking || page.deviceNote;
}

function drawAll() {
  drawLobby();
  drawCall();
}

function toggle(kind) {
  const denied = kind === 'audio' ? page.denied.microphone : kind === 'video' ? page.denied.camera : false;
  if (denied) {
    showPrompt(true);
    return;
  }
  prefs.devices[kind] = !prefs.devices[kind];
  prefs.saveDevices();
  applyToggles();
}

function showPrompt(asked = false) {
  const { microphone, camera } = page.denied;
  if (!microphone && !camera) return;
  const kind = microphone && camera ? 'camera-and-microphone' : microphone ? 'microphone' : 'camera';
  if (asked || !prefs.promptDismissed(kind)) view.prompt.show(kind);
}

function join(name) {
  const { name: checked } = checkedName(name);
  const joinedAs = checked || 'Guest';
  prefs.name = joinedAs;
  client.resume();
  client.join(joinedAs);
  page.joined = true;
  $('lobby-screen').hidden = true;
  $('left-screen').hidden = true;
  $('call-screen').hidden = false;
  drawCall();
  // Focus goes to the call's heading, which says where the user is, not to the page's body.
  $('call-title').focus();
}

// "Test your microphone": played back through the chosen speaker, or not at all while the speaker is off.
function testMicrophone() {
  client.resume();
  client.testMicrophone({ sinkId: prefs.devices.audiooutput, playBack: prefs.devices.speaker }).catch((error) => {
    // A cancelled or failed test said so in its event; a refusal ("Turn your microphone on…") is said here.
    if (error.code !== 'test-cancelled' && error.code !== 'test-failed') {
      view.lobby.microphoneTest = { state: 'failed', message: error.message };
    }
  });
}

function leave() {
  client.leave();
  page.joined = false;
  page.offeredAs = null;
  mesh.closeAll();
  view.notice.hide();
  features.left();
  $('call-screen').hidden = true;
  $('left-screen').hidden = false;
  $('rejoin').focus();
}

// ---- What the client says --------------------------------------------------------------------------------

client.addEventListener('welcome', (e) => {
  if (e.detail.name) view.lobby.state = { name: e.detail.name, nameLocked: true };
  // A listener sends nothing: the camera closes, and the microphone the client closed leaves the calls too.
  if (!may('video')) devices.forbid();
  if (!may('audio')) mesh.setTracks({ audio: null });
  applyToggles();
});
client.addEventListener('microphone', (e) => {
  view.lobby.microphone = e.detail;
  const notWorking = e.detail.notWorking || null;
  if (notWorking !== page.notWorking) {
    page.notWorking = notWorking;
    drawCall();
  }
});
client.addEventListener('microphonetest', (e) => {
  view.lobby.microphoneTest = e.detail;
});
client.addEventListener('presence', () => {
  for (const id of mesh.peers.keys()) if (!client.participants.has(id)) mesh.close(id);
  // Once this page is in the call under its current id (after a join, or a rejoin after a reconnection, when
  // the others saw the old id leave), it offers to everyone already there, once.
  if (page.joined && client.participants.has(client.me) && page.offeredAs !== client.me) {
    page.offeredAs = client.me;
    mesh.closeAll();
    mesh.offerTo(client.others().map((p) => p.id));
  }
  drawAll();
});
client.addEventListener('mutednotice', (e) => {
  // A host's mute is not silenced by "don't show again".
  if (e.detail.show && page.joined && (!prefs.mutedNoticeOff || e.detail.cause === 'host')) view.notice.show(e.detail);
  else if (!e.detail.show) view.notice.hide();
});
// Where the microphone is analysed decides the lobby's note on capture.
client.addEventListener('analysis', () => drawLobby());
client.addEventListener('connection', (e) => {
  page.status = e.detail.message || (fresh && !page.joined ? FRESH : '');
  drawAll();
});
client.addEventListener('streamchange', (e) => {
  mesh.setTracks({ audio: e.detail.stream.getAudioTracks()[0].clone() });
  page.denied.microphone = false;
  applyToggles();
});
client.addEventListener('permission', (e) => {
  page.denied.microphone = e.detail.microphone === 'denied';
  if (e.detail.microphone === 'unavailable') {
    page.deviceNote = `The microphone could not be opened (${e.detail.message}); is another program using it?`;
  }
  mesh.setTracks({ audio: null });
  applyToggles();
});
client.addEventListener('devicefallback', (e) => {
  page.deviceNote = e.detail.message;
  drawAll();
});

// ---- What the views say ---------------------------------------------------------------------------------

document.addEventListener('miccheck-toggle', (e) => toggle(e.detail.kind));
document.addEventListener('miccheck-choose-device', (e) => devices.choose(e.detail.kind, e.detail.deviceId, client));
document.addEventListener('miccheck-name', () => drawLobby());
document.addEventListener('miccheck-join', (e) => join(e.detail.name));
document.addEventListener('miccheck-test-microphone', testMicrophone);
document.addEventListener('miccheck-leave', leave);
document.addEventListener('miccheck-unmute', () => {
  if (!on('audio')) toggle('audio');
  $('call-title').focus();
});
document.addEventListener('miccheck-muted-notice-off', () => {
  prefs.mutedNoticeOff = true;
  client.mutedNoticeOff();
});
document.addEventListener('miccheck-dismiss', (e) => {
  prefs.dismissPrompt(e.detail.kind);
  // A prompt shown as the page opened had no control to give focus back to: the name in the lobby, the call's
  // title in the call. Just after the dialog closes, the focus may still be reported on the prompt itself
  // (Chromium moves it to <body> a moment later).
  setTimeout(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active !== view.prompt) return;
    if (page.joined) $('call-title').focus();
    else view.lobby.focusName?.();
  });
});
document.addEventListener('keydown', (e) => {
  // In the call, m toggles the microphone (the muted notice's action), as the terminal's lobby does.
  const typing = e.composedPath().some((el) => el instanceof HTMLInputElement || el instanceof HTMLSelectElement
    || el instanceof HTMLTextAreaElement || el.isContentEditable);
  if (page.joined && !typing && !e.ctrlKey && !e.metaKey && !e.altKey && e.key.toLowerCase() === 'm') toggle('audio');
});
$('rejoin').addEventListener('click', () => {
  $('left-screen').hidden = true;
  $('lobby-screen').hidden = false;
  view.lobby.focusName?.();
});

$('lobby-screen').append(view.lobby);
$('grid').append(view.grid);
$('toolbar').append(view.controls);
document.body.append(view.notice, view.prompt);
$('call-title').textContent = `In the call ${call}`;
view.lobby.state = { name: params.get('name') || prefs.name };
if (client.state === 'idle' && prefs.mutedNoticeOff) client.mutedNoticeOff();

// The microphone (the client's) and the camera open each on their own: one that fails leaves the other, and
// the connection, working.
async function start() {
  // A listener's invitation opens neither (client.may reads its role before the server's welcome).
  await Promise.all([client.start(), may('video') ? devices.openCamera() : Promise.resolve()]);
  page.denied.camera = devices.denied;
  if (devices.problem) page.deviceNote = devices.problem;
  applyToggles();
  await devices.refresh();
  showPrompt();
}
start().catch((error) => {
  page.deviceNote = `The page could not start: ${error.message || error.name}.`;
  drawLobby();
});
