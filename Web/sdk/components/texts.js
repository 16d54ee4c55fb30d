// Every sentence the components show, in one place (the lobby's come from DESIGN.md's user-facing strings,
// which tests and scripts look for). Pure.

/** The note a page shows: capture goes on while muted, and why; MicCheck hears it in this page alone. */
export const CAPTURE_NOTE = 'While your microphone is off in the call, MicCheck keeps listening to it to tell you '
  + 'when you speak: your browser shows the microphone in use. MicCheck hears it in this page; no sound of it '
  + 'leaves your computer while you are muted.';

/** The note where the page's own analysis could not run and the server analyses the microphone. */
export const CAPTURE_NOTE_SERVER = 'While your microphone is off in the call, MicCheck keeps listening to it to '
  + 'tell you when you speak: your browser shows the microphone in use. Its sound goes to this call\'s server to '
  + 'be analysed, never to the others.';

export const TEXT = Object.freeze({
  title: 'Before Joining',
  subtitle: 'Setup your audio and video',
  notWorking: "Your microphone doesn't seem to be working. Make sure you have all permissions accepted.",
  aboutToJoin: 'You are about to join a call.',
  join: 'Join Call',
  muted: 'You are muted.',
  unmute: 'Unmute',
  mutedNoticeOff: "Don't show again for this call",
  close: 'Close',
  leave: 'Leave',
  openSettings: 'Open Settings',
  dismiss: 'Dismiss',
  yourName: 'Your name',
  nameCut: 'Names are at most 64 characters; yours was shortened.',
  meter: 'Microphone level',
  meterOff: 'Microphone off',
  you: 'You',
  guest: 'Guest',
  devices: 'Devices',
  defaultDevice: 'Default',
  privacy: CAPTURE_NOTE,
  testMicrophone: 'Test your microphone',
  testAgain: 'Test again',
  testRecording: 'Recording: say a sentence or two as you would in the call.',
  testPlaying: 'Playing back your recording…',
  testMicrophoneOff: 'Turn your microphone on to test it.',
  typing: 'Your typing can be heard.',
  mute: 'Mute',
  pushToTalk: 'Push-to-talk',
  pushToTalkHint: 'Push-to-talk: hold Space to talk',
  talking: 'Talking',
});

/**
 * A tile's Mute button's accessible name (a host's): "Mute NAME".
 * @param {string} name
 * @returns {string}
 */
export function muteLabel(name) { return `Mute ${name}`; }

/**
 * The seconds a microphone test has left to record: "4 s left."
 * @param {number} n
 * @returns {string}
 */
export function secondsLeft(n) { return `${n} s left.`; }

/**
 * "Call: NAME", under "You are about to join a call."
 * @param {string} name
 * @returns {string}
 */
export function callLine(name) { return `Call: ${name}`; }

/**
 * How many others are in the call, as the lobby says it.
 * @param {number} n
 * @returns {string}
 */
export function othersSentence(n) {
  if (n === 0) return 'Nobody else is in the call yet.';
  if (n === 1) return 'There is 1 more person in the call.';
  return `There are ${n} more people in the call.`;
}

/** The toggles, in their order, with their labels. */
export const TOGGLES = Object.freeze([
  { kind: 'audio', label: 'Microphone', icon: 'microphone', offIcon: 'microphoneOff' },
  { kind: 'video', label: 'Camera', icon: 'camera', offIcon: 'cameraOff' },
  { kind: 'speaker', label: 'Speaker', icon: 'speaker', offIcon: 'speakerOff' },
]);

/** Why a toggle is disabled: the invitation's role does not let this participant send it. */
export function notAllowed(kind) { return `Your invitation does not let you send ${kind}.`; }

/** The device menus, in their order, with their labels. */
export const DEVICE_KINDS = Object.freeze([
  { kind: 'audioinput', label: 'Microphone' },
  { kind: 'videoinput', label: 'Camera' },
  { kind: 'audiooutput', label: 'Speaker' },
]);

/** A tile's accessible name: "Ada Lovelace (you), speaking, microphone off". */
export function tileLabel({ name, self, speaking, audio, video }) {
  const parts = [self ? `${name} (you)` : name];
  if (speaking) parts.push('speaking');
  if (!audio) parts.push('microphone off');
  if (!video) parts.push('camera off');
  return parts.join(', ');
}

/** The permissions prompt's title and message for each kind. */
export const PERMISSION_TEXTS = Object.freeze({
  'camera-and-microphone': {
    title: 'Camera and microphone access required',
    message: 'The call lets you speak and show video, but this page cannot use your camera or your microphone.',
  },
  camera: {
    title: 'Camera access required',
    message: 'The call lets you show video, but this page cannot use your camera.',
  },
  microphone: {
    title: 'Microphone access required',
    message: 'The call lets you speak, but this page cannot use your microphone.',
  },
});

/** The steps "Open Settings" shows, per browser, and the note about Linux (its command in code font). */
export const SETTINGS_STEPS = Object.freeze([
  {
    browser: 'Chromium',
    steps: [
      'Click the icon left of the address bar (a lock or a camera with a cross).',
      'Set Camera and Microphone to "Allow", then reload the page.',
      'If they stay blocked: Settings → Privacy and security → Site settings → this site.',
    ],
  },
  {
    browser: 'Firefox',
    steps: [
      'Click the crossed-out camera or microphone icon in the address bar.',
      'Remove "Blocked Temporarily" or "Blocked", then reload the page and choose "Allow".',
      'If it is still blocked: Settings → Privacy & Security → Permissions → Camera / Microphone.',
    ],
  },
]);
export const LINUX_NOTE = Object.freeze({
  before: 'On Linux, check also that no other program holds the camera, and that the sound server runs (',
  code: 'pactl info',
  after: ').',
});

/**
 * What a screen reader says of the meter (its `aria-valuetext`): the shown level in percent and the level in
 * dBFS ("46 %, -27 dBFS"), or that the microphone is off; never the bare 0–1 fraction.
 */
export function meterValueText({ on, display, levelDb }) {
  if (!on) return TEXT.meterOff;
  const db = Number.isFinite(levelDb) && levelDb > -160 ? `${Math.round(levelDb)} dBFS` : 'silence';
  return `${Math.round(Math.min(1, Math.max(0, display)) * 100)} %, ${db}`;
}
