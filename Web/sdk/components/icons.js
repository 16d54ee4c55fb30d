// The components' icons: inline SVG (the page's Content-Security-Policy allows no remote images), hidden from
// assistive technology (each control that shows one has a text label), drawn in the text's colour.

const svg = (paths) => '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="20" height="20" '
  + `aria-hidden="true" focusable="false" fill="currentColor">${paths}</svg>`;

const SLASH = '<path d="M3.4 2 2 3.4 20.6 22l1.4-1.4z"/>';
const MIC = '<path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 '
  + '6.92V21h2v-3.08A7 7 0 0 0 19 11h-2z"/>';
const CAMERA = '<path d="M15 8v8H5V8h10m1-2H4a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-3.5l4 4v-11l-4 '
  + '4V7a1 1 0 0 0-1-1z"/>';
const SPEAKER_BODY = '<path d="M3 9v6h4l5 5V4L7 9H3z"/>';
const WAVES = '<path d="M16.5 12A4.5 4.5 0 0 0 14 7.97v8.05A4.5 4.5 0 0 0 16.5 12zM14 3.23v2.06a7 7 0 0 1 0 '
  + '13.42v2.06a9 9 0 0 0 0-17.54z"/>';
const CROSS = '<path d="m16 9.4 1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 '
  + '2.1-2.1z"/>';
const HANG_UP = '<path d="M12 9c-1.6 0-3.15.25-4.6.72v3.1c0 .39-.23.74-.56.9-.98.49-1.87 1.12-2.66 1.85a1 1 0 0 '
  + '1-1.41-.01L.29 13.08a1 1 0 0 1 0-1.41C3.34 8.78 7.46 7 12 7s8.66 1.78 11.71 4.67a1 1 0 0 1 0 1.41l-2.48 '
  + '2.48a1 1 0 0 1-1.41.01 11.3 11.3 0 0 0-2.67-1.85 1 1 0 0 1-.56-.9v-3.1A15 15 0 0 0 12 9z"/>';
const CLOSE = '<path d="M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 '
  + '12z"/>';

/** The icons by name, each an SVG string. */
export const ICONS = Object.freeze({
  microphone: svg(MIC),
  microphoneOff: svg(MIC + SLASH),
  camera: svg(CAMERA),
  cameraOff: svg(CAMERA + SLASH),
  speaker: svg(SPEAKER_BODY + WAVES),
  speakerOff: svg(SPEAKER_BODY + CROSS),
  leave: svg(HANG_UP),
  close: svg(CLOSE),
});

/** A span holding the named icon, with the given part name. */
export function icon(name, part = 'icon') {
  const span = document.createElement('span');
  span.setAttribute('part', part);
  span.className = 'icon';
  span.innerHTML = ICONS[name];
  return span;
}
