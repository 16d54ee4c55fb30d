// A microphone plugged in while the lobby or the call is open is offered: "A new microphone is available:
// NAME. Switch?" with Switch and Ignore (the terminal's lobby and call offer it the same way). What is new is
// decided here, purely (node's tests give it lists); the offer is a small panel of the page's own.

// Not devices of their own: Chromium's entries for the system's default and communications devices.
const ALIASES = new Set(['', 'default', 'communications']);

/** The microphones of `after` that were not in `before` (lists of `{deviceId, label}`). */
export function newDevices(before, after) {
  const known = new Set(before.map((d) => d.deviceId));
  return after.filter((d) => !ALIASES.has(d.deviceId) && !known.has(d.deviceId));
}

/** The offer's sentence. */
export function offerText(label) { return `A new microphone is available: ${label}. Switch?`; }

export class DeviceOffer {
  /**
   * @param {(device: {deviceId: string, label: string}) => void} onSwitch the user chose to switch to it
   */
  constructor(onSwitch) {
    this.onSwitch = onSwitch;
    this.device = null;
    this.ignored = new Set();
    const button = (text, cls, click) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      if (cls) b.className = cls;
      b.addEventListener('click', click);
      return b;
    };
    this.text = document.createElement('p');
    this.text.setAttribute('aria-live', 'polite');
    this.element = document.createElement('div');
    this.element.className = 'device-offer';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', 'A new microphone');
    this.element.hidden = true;
    this.element.append(this.text, button('Switch', 'primary', () => this.#answer(true)),
      button('Ignore', '', () => this.#answer(false)));
  }

  /** Offers `device` (unless the user ignored it before on this page). */
  offer(device) {
    if (this.ignored.has(device.deviceId)) return;
    this.device = device;
    this.text.textContent = offerText(device.label);
    this.element.hidden = false;
  }

  #answer(yes) {
    const device = this.device;
    if (!yes) this.ignored.add(device.deviceId);
    this.#close();
    if (yes) this.onSwitch(device);
  }

  #close() {
    this.device = null;
    this.element.hidden = true;
  }
}
