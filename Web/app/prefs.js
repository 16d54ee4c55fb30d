// The page's choices, remembered in the browser (as LiveKit's PreJoin does): the toggles and the devices, the
// name, and per call "don't show again" and the dismissed permission prompts.

function get(key, fallback) {
  try {
    const v = localStorage.getItem(`miccheck.${key}`);
    return v === null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

function set(key, value) {
  try { localStorage.setItem(`miccheck.${key}`, JSON.stringify(value)); } catch { /* private mode: not kept */ }
}

export class Prefs {
  constructor(call) {
    this.call = call;
    this.devices = Object.assign({ audio: true, video: true, speaker: true, audioinput: '', videoinput: '',
      audiooutput: '' }, get('devices', {}));
  }

  saveDevices() { set('devices', this.devices); }

  get name() { return get('name', ''); }
  set name(value) { set('name', value); }

  get mutedNoticeOff() { return get(`muted-off.${this.call}`, false); }
  set mutedNoticeOff(value) { set(`muted-off.${this.call}`, value); }

  promptDismissed(kind) { return get(`prompt-dismissed.${this.call}`, []).includes(kind); }
  dismissPrompt(kind) {
    set(`prompt-dismissed.${this.call}`, [...new Set([...get(`prompt-dismissed.${this.call}`, []), kind])]);
  }
}
