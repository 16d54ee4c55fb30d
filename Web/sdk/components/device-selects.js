// The lobby's device menus: Microphone, Camera, Speaker, each labelled, its options the devices the browser
// lists (a device without a label, before permission, is "Microphone 1"…). A choice says
// `miccheck-choose-device` with `{kind, deviceId}`; the app opens it, remembers it and sets `chosen`.
import { emit, h } from './base.js';
import { DEVICE_KINDS, TEXT } from './texts.js';

/** The three menus: `{element, selects: {audioinput, videoinput, audiooutput}, update(devices, chosen)}`. */
export function makeDeviceSelects() {
  const selects = {};
  const labels = DEVICE_KINDS.map(({ kind, label }) => {
    selects[kind] = h('select', {
      part: `device-select device-${kind}`, 'data-kind': kind,
      on: { change: (e) => emit(e.currentTarget, 'miccheck-choose-device', { kind, deviceId: e.target.value }) },
    });
    return h('label', { part: 'device-label' }, h('span', { text: label }), selects[kind]);
  });
  const keys = new Map();
  // Options are made again only when the list or the choice changes, so that an open menu stays open.
  function update(devices = {}, chosen = {}) {
    for (const { kind, label } of DEVICE_KINDS) {
      const list = Array.isArray(devices[kind]) ? devices[kind] : [];
      const want = chosen[kind] || '';
      const key = JSON.stringify([list.map((d) => [d.deviceId, d.label]), want]);
      if (keys.get(kind) === key) continue;
      keys.set(kind, key);
      const select = selects[kind];
      if (list.length === 0) {
        select.replaceChildren(h('option', { value: '', text: TEXT.defaultDevice }));
        select.disabled = true;
        continue;
      }
      select.disabled = false;
      select.replaceChildren(...list.map((d, i) => {
        const option = h('option', { value: d.deviceId ?? '', text: d.label || `${label} ${i + 1}` });
        option.selected = d.deviceId === want;
        return option;
      }));
    }
  }
  update();
  return { labels, selects, update };
}
