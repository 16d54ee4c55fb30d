// The embedding app's own participant tile: a gradient with a microphone icon whose ring shows who speaks,
// and the video when there is one. MicCheck's grid and lobby set the same four properties on it as on their
// own tile (participant, stream, speakerOn, showSpeaking); nothing else of MicCheck's is replaced.

const MIC = '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" fill="currentColor">'
  + '<path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1'
  + 'A7 7 0 0 0 19 11z"/></svg>';

const sheet = new CSSStyleSheet();
sheet.replaceSync(`
:host { display: block; position: relative; aspect-ratio: 16 / 9; border-radius: 16px; overflow: hidden;
  background: linear-gradient(135deg, #6d28d9, #db2777); color: #fff; font: 15px system-ui, sans-serif; }
video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.mic { position: absolute; left: 50%; top: 45%; transform: translate(-50%, -50%); width: 64px; height: 64px;
  display: grid; place-items: center; border-radius: 50%; background: rgba(0, 0, 0, 0.25);
  box-shadow: 0 0 0 0 transparent; transition: box-shadow 120ms; }
:host([speaking]) .mic { box-shadow: 0 0 0 6px #fde047; }
.name { position: absolute; left: 12px; bottom: 10px; font-weight: 600; }
[hidden] { display: none !important; }
`);

export class AcmeTile extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = `<video autoplay playsinline hidden></video><div class="mic">${MIC}</div><div class="name"></div>`;
    this.video = root.querySelector('video');
    this.label = root.querySelector('.name');
    this._participant = null;
    this._stream = null;
    this._showSpeaking = true;
    this._speakerOn = true;
  }

  // A custom element gets its attributes once made, never in its constructor.
  connectedCallback() {
    this.setAttribute('role', 'group');
    this.draw();
  }

  set participant(p) {
    this._participant = p;
    this.draw();
  }
  get participant() { return this._participant; }

  set stream(s) {
    this._stream = s;
    if (this.video.srcObject !== s) this.video.srcObject = s;
    this.draw();
  }
  get stream() { return this._stream; }

  set showSpeaking(on) {
    this._showSpeaking = on;
    this.draw();
  }
  get showSpeaking() { return this._showSpeaking; }

  set speakerOn(on) {
    this._speakerOn = on;
    this.draw();
  }
  get speakerOn() { return this._speakerOn; }

  draw() {
    const p = this._participant;
    if (!p) return;
    const track = this._stream?.getVideoTracks()[0];
    this.video.hidden = !(p.video && track && track.readyState === 'live');
    this.video.muted = p.self || !this._speakerOn;
    this.label.textContent = p.self ? `${p.name} (you)` : p.name;
    this.toggleAttribute('speaking', !!p.speaking && this._showSpeaking);
    this.dataset.speaking = String(!!p.speaking);
    this.setAttribute('aria-label', `${p.name}${p.speaking ? ', speaking' : ''}${p.audio ? '' : ', microphone off'}`);
  }
}

customElements.define('acme-tile', AcmeTile);
