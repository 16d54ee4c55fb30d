// The microphone, camera and speaker toggles that the lobby and the call's toolbar share: an icon and a
// visible label each, `aria-pressed` for the state (the label does not change with it), disabled with the
// reason as a title when the invitation's role does not allow sending it. A click says `miccheck-toggle`.
import { emit, h } from './base.js';
import { ICONS } from './icons.js';
import { TOGGLES, notAllowed } from './texts.js';

/** The CSS for the toggles, for the shadow roots that hold them. */
export const TOGGLE_CSS = `
[part~="toggle"] .label { white-space: nowrap; }
[part~="toggle"][aria-pressed="false"] {
  background: color-mix(in srgb, var(--_danger) 30%, var(--_control)); border-color: var(--_danger);
}
[part~="toggle"][aria-pressed="false"] .label { text-decoration: line-through; }
`;

/** The three toggles: `{buttons: {audio, video, speaker}, update({settings, allowed})}`. */
export function makeToggleButtons() {
  const buttons = {};
  for (const { kind, label } of TOGGLES) {
    const iconSpan = h('span', { part: 'icon', class: 'icon' });
    buttons[kind] = h('button', {
      part: `toggle toggle-${kind}`, type: 'button', 'aria-pressed': 'true', 'data-kind': kind,
      on: { click: (e) => emit(e.currentTarget, 'miccheck-toggle', { kind }) },
    }, iconSpan, h('span', { part: 'label', class: 'label', text: label }));
  }
  const shown = new Map();
  function update({ settings = {}, allowed = {} } = {}) {
    for (const { kind, icon, offIcon } of TOGGLES) {
      const button = buttons[kind];
      // Speaker is always allowed: it is about what one hears.
      const may = kind === 'speaker' || allowed[kind] !== false;
      const on = settings[kind] !== false && may;
      button.setAttribute('aria-pressed', String(on));
      button.disabled = !may;
      if (may) button.removeAttribute('title'); else button.title = notAllowed(kind);
      const name = on ? icon : offIcon;
      if (shown.get(kind) !== name) {
        shown.set(kind, name);
        button.firstChild.innerHTML = ICONS[name];
      }
    }
  }
  update();
  return { buttons, list: TOGGLES.map(({ kind }) => buttons[kind]), update };
}
