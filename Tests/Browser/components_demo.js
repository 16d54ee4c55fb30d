// Every MicCheck web component with made-up state: a camera drawn on a canvas, someone whose speaking comes
// and goes, a factory whose participant tile is the page's own. `window.demo` holds the elements for the tests
// (Tests/Browser/components_tests.py); `window.demoEvents` the events they sent; `window.cspViolations` any
// breach of the page's Content-Security-Policy.
import { ViewFactory, createViewFactory } from '/Web/sdk/components.js';

const params = new URLSearchParams(location.search);
const view = params.get('view') || 'all';
const still = params.has('still');

window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || e.sample}`);
});
window.demoEvents = [];
for (const type of ['miccheck-toggle', 'miccheck-leave', 'miccheck-unmute', 'miccheck-muted-notice-off',
  'miccheck-close', 'miccheck-dismiss', 'miccheck-open-settings', 'miccheck-choose-device', 'miccheck-name',
  'miccheck-join', 'miccheck-test-microphone', 'miccheck-mute', 'miccheck-mute-participant', 'miccheck-push-to-talk']) {
  document.addEventListener(type, (e) => {
    window.demoEvents.push({ type, detail: e.detail, target: e.target.localName });
  });
}

// A camera: a canvas with a moving bar and a clock, as a MediaStream.
function fakeCamera(label) {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 180;
  const g = canvas.getContext('2d');
  let t = 0;
  const draw = () => {
    t += 1;
    g.fillStyle = `hsl(${(t * 3) % 360} 45% 30%)`;
    g.fillRect(0, 0, 320, 180);
    g.fillStyle = '#fff';
    g.fillRect((t * 4) % 320, 0, 12, 180);
    g.font = '24px sans-serif';
    g.fillText(`${label} ${new Date().toLocaleTimeString()}`, 16, 100);
  };
  draw();
  setInterval(draw, 66);
  return canvas.captureStream(15);
}

// The page's own tile, for the custom factory: any element with these properties will do.
class DemoTile extends HTMLElement {
  set participant(p) { this._p = p; this.render(); }
  get participant() { return this._p; }
  set stream(s) { this._s = s; }
  get stream() { return this._s; }
  set speakerOn(on) { this._speakerOn = on; }
  set showSpeaking(on) { this._showSpeaking = on; this.render(); }
  render() {
    const p = this._p || {};
    this.textContent = `Custom tile: ${p.name || '?'}${p.self ? ' (you)' : ''}`;
    this.dataset.id = p.id || '';
    this.classList.toggle('speaking', !!(p.speaking && this._showSpeaking));
  }
}
customElements.define('demo-tile', DemoTile);

const factory = new ViewFactory();
const customFactory = createViewFactory({
  makeVideoParticipantView() { return document.createElement('demo-tile'); },
});

const camera = fakeCamera('Ada');
const remoteCamera = fakeCamera('Alan');
const people = [
  { id: 'ada', name: 'Ada Lovelace', audio: true, video: true, speaking: false },
  { id: 'alan', name: 'Alan Turing', audio: true, video: true, speaking: true },
  { id: 'fox', name: '🦊 Fox', audio: false, video: false, speaking: false },
];
const streams = { ada: camera, alan: remoteCamera };
const gridOptions = { me: 'ada', streamOf: (id) => streams[id] || null, speakerOn: true };
const demo = { factory, customFactory, camera, remoteCamera, people, gridOptions };
window.demo = demo;

const root = document.getElementById('demo');
const el = (tag, attributes = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  e.append(...children);
  return e;
};
const section = (title, ...children) => el('section', { class: 'demo' }, el('h2', {}, title), ...children);
const button = (text, onClick) => {
  const b = el('button', { type: 'button' }, text);
  b.addEventListener('click', onClick);
  return b;
};

function lobbyState() {
  return {
    name: 'Ada Lovelace', call: 'team-standup', selfStream: camera,
    settings: { audio: true, video: true, speaker: true }, allowed: { audio: true, video: true },
    devices: {
      audioinput: [{ deviceId: 'mic1', label: 'Built-in Microphone' }, { deviceId: 'mic2', label: 'USB Headset' }],
      videoinput: [{ deviceId: 'cam1', label: 'Integrated Camera' }],
      audiooutput: [{ deviceId: 'default', label: 'Speakers' }, { deviceId: 'hs', label: 'USB Headset' }],
    },
    chosen: { audioinput: 'mic2', videoinput: 'cam1', audiooutput: 'default' },
    others: people.slice(1), deviceNote: '', status: '', joinDisabled: false,
  };
}

// A lobby that follows its own events, as an app would.
function wireLobby(lobby) {
  lobby.state = lobbyState();
  lobby.addEventListener('miccheck-toggle', (e) => {
    const settings = { ...lobby.state.settings, [e.detail.kind]: !lobby.state.settings[e.detail.kind] };
    lobby.state = { settings };
  });
  lobby.addEventListener('miccheck-choose-device', (e) => {
    lobby.state = { chosen: { ...lobby.state.chosen, [e.detail.kind]: e.detail.deviceId } };
  });
  return lobby;
}

function wireControls(controls) {
  controls.state = { audio: true, video: true, speaker: true, allowed: { audio: true, video: true } };
  controls.addEventListener('miccheck-toggle', (e) => {
    controls.state = { ...controls.state, [e.detail.kind]: !controls.state[e.detail.kind] };
  });
  return controls;
}

if (view === 'lobby') {
  document.body.classList.add('single');
  demo.lobby = wireLobby(factory.makeLobbyView());
  root.append(demo.lobby);
} else if (view === 'controls') {
  document.body.classList.add('single');
  demo.controls = wireControls(factory.makeCallControlsView());
  root.append(demo.controls);
} else {
  demo.meter = factory.makeMeterView();
  demo.meter.state = { on: true, levelDb: -20, display: 0.6, notWorking: null, warnings: [] };
  root.append(section('miccheck-meter', demo.meter, el('div', { class: 'demo-buttons' },
    button('Not working', () => {
      demo.meter.state = { on: true, levelDb: -160, display: 0, warnings: ['Your microphone is noisy.'],
        notWorking: "Your microphone doesn't seem to be working. Make sure you have all permissions accepted." };
    }),
    button('Working', () => { demo.meter.state = { on: true, levelDb: -20, display: 0.6, warnings: [] }; }))));

  // "Test your microphone": each step, as the client's microphonetest events would set it.
  const sentence = 'Your voice came through clearly: -23.7 dBFS while you spoke, 39.2 dB above the room\'s noise.';
  demo.microphoneTest = factory.makeMicrophoneTestView();
  root.append(section('miccheck-microphone-test', demo.microphoneTest, el('div', { class: 'demo-buttons' },
    button('Recording', () => { demo.microphoneTest.state = { state: 'recording', seconds: 5, secondsLeft: 4 }; }),
    button('Playing back', () => {
      demo.microphoneTest.state = { state: 'playing', seconds: 5, verdict: 'clear', sentence };
    }),
    button('Clear', () => { demo.microphoneTest.state = { state: 'done', seconds: 5, verdict: 'clear', sentence }; }),
    button('Too quiet', () => {
      demo.microphoneTest.state = { state: 'done', seconds: 5, verdict: 'too_quiet', sentence: 'Your voice came '
        + 'through too quietly (-57.0 dBFS while you spoke). Raise your microphone\'s input volume, or move closer '
        + 'to the microphone.' };
    }))));

  demo.notice = factory.makeMutedNoticeView();
  root.append(section('miccheck-muted-notice', demo.notice, el('div', { class: 'demo-buttons' },
    button('Show "You are muted."', () => demo.notice.show()),
    button('Show for 10 s', () => demo.notice.show({ durationMs: 10000 })),
    button('Muted by a host', () => demo.notice.show({ durationMs: 10000, announcement: 'Grace muted you.' })))));

  demo.typing = factory.makeTypingNoticeView();
  root.append(section('miccheck-typing-notice', demo.typing, el('div', { class: 'demo-buttons' },
    button('Show "Your typing can be heard."', () => demo.typing.show({ durationMs: 10000 })))));

  demo.tiles = {};
  const tiles = el('div', { class: 'row' });
  for (const [key, p, stream] of [['self', { ...people[0], self: true }, camera], ['remote', people[1], null],
    ['fox', people[2], null]]) {
    const tile = factory.makeVideoParticipantView(p);
    tile.participant = p;
    tile.stream = stream;
    tile.showSpeaking = true;
    demo.tiles[key] = tile;
    tiles.append(tile);
  }
  root.append(section('miccheck-participant-tile', tiles));

  demo.prompt = factory.makePermissionsPromptView();
  const openers = ['camera-and-microphone', 'microphone', 'camera'].map((kind) => {
    const b = button(`Prompt: ${kind}`, () => demo.prompt.show(kind));
    b.id = `open-${kind}`;
    return b;
  });
  root.append(section('miccheck-permissions-prompt', demo.prompt, el('div', { class: 'demo-buttons' }, ...openers)));

  demo.strip = factory.makeParticipantsStripView();
  demo.strip.participants = people.slice(1);
  root.append(section('miccheck-participants-strip', demo.strip));

  demo.grid = factory.makeCallGridView();
  demo.grid.update(people, gridOptions);
  root.append(section('miccheck-call-grid', demo.grid));

  demo.customGrid = customFactory.makeCallGridView();
  demo.customGrid.update(people, gridOptions);
  root.append(section('miccheck-call-grid (a factory with its own tile)', demo.customGrid));

  demo.controls = wireControls(factory.makeCallControlsView());
  root.append(section('miccheck-call-controls', demo.controls));

  demo.lobby = wireLobby(factory.makeLobbyView());
  root.append(section('miccheck-lobby', demo.lobby));
  demo.customLobby = wireLobby(customFactory.makeLobbyView());
  root.append(section('miccheck-lobby (a factory with its own tile)', demo.customLobby));

  // Alan's speaking comes and goes; the meter moves.
  if (!still) {
    let t = 0;
    demo.timer = setInterval(() => {
      t += 1;
      people[1] = { ...people[1], speaking: t % 20 < 10 };
      demo.grid.update(people, gridOptions);
      demo.customGrid.update(people, gridOptions);
      demo.tiles.remote.participant = people[1];
      const display = Math.abs(Math.sin(t / 3)) * 0.9;
      demo.meter.state = { on: true, levelDb: display * 50 - 50, display, notWorking: null, warnings: [] };
      demo.lobby.microphone = demo.meter.state;
    }, 200);
  }
}
demo.ready = true;
