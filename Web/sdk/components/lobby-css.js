// The lobby's layout: two columns (the preview with its meter and toggles; the name, joining, devices) on a
// wide screen, one below 720 px, where the preview gets smaller so that "Join Call" shows without scrolling.
import { TOGGLE_CSS } from './toggle-buttons.js';

export const LOBBY_CSS = `
:host { display: block; container-type: inline-size; }
[part~="screen"] { max-width: 1100px; margin: 0 auto; padding: 24px; }
[part~="title"] { margin: 0 0 4px; font-size: 28px; line-height: 1.2; }
[part~="subtitle"] { margin: 0 0 20px; color: var(--_muted-text); }
[part~="layout"] {
  display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 24px; align-items: start;
}
[part~="preview-panel"], [part~="setup-panel"] {
  min-width: 0; padding: 16px; border-radius: var(--_radius); background: var(--_panel);
}
::slotted([slot="preview"]) { width: 100%; margin-inline: auto; }
[part~="toggles"] { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
[part~="toggles"] button { flex: 1 1 auto; }
[part~="setup-panel"] { display: flex; flex-direction: column; gap: 12px; }
[part~="name-label"], [part~="device-label"] { display: flex; flex-direction: column; gap: 4px; }
[part~="name-label"] > span, [part~="device-label"] > span { color: var(--_muted-text); }
input, select {
  width: 100%; min-width: 0; min-height: 40px; padding: 8px; border-radius: calc(var(--_radius) / 2);
  border: 1px solid var(--_border); background: var(--_field);
}
input[readonly] { opacity: 0.8; }
p { margin: 0; }
[part~="name-note"], [part~="device-note"], [part~="status"] { color: var(--_warning); font-size: 14px; }
[part~="join-panel"] { display: flex; flex-direction: column; gap: 8px; }
[part~="call"] { overflow-wrap: anywhere; }
[part~="join"] { width: 100%; margin-top: 4px; }
[part~="devices"] { display: flex; flex-direction: column; gap: 10px; margin: 0; padding: 0; border: 0; }
[part~="devices"] legend { padding: 0; margin-bottom: 6px; font-weight: 600; }
[part~="privacy"] { color: var(--_muted-text); font-size: 13px; }
@container (max-width: 720px) {
  [part~="screen"] { padding: 12px; }
  [part~="title"] { font-size: 24px; }
  [part~="subtitle"] { margin-bottom: 12px; }
  [part~="layout"] { grid-template-columns: minmax(0, 1fr); gap: 12px; }
  [part~="preview-panel"], [part~="setup-panel"] { padding: 12px; }
  ::slotted([slot="preview"]) { max-height: 26vh; }
  [part~="toggles"] { gap: 6px; }
  [part~="toggles"] button { padding: 6px 8px; min-height: 44px; }
}
` + TOGGLE_CSS;
