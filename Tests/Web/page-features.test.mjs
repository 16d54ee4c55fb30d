// MicCheck's page: push-to-talk's keys, and a microphone plugged in while the page is open (Devices listening to
// `devicechange` on a fake navigator.mediaDevices: Chromium's fake devices cannot be plugged in, so the browser
// tests cannot do it). `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { newDevices, offerText } from '../../Web/app/device-offer.js';
import { PushToTalk } from '../../Web/app/push-to-talk.js';

const key = (o = {}) => {
  const e = { code: 'Space', repeat: false, prevented: false, composedPath: () => [{ tagName: 'BODY' }], ...o };
  e.preventDefault = () => { e.prevented = true; };
  return e;
};

test('push-to-talk: Space held talks, released mutes; repeats, fields, modifiers and blur', () => {
  const changes = [];
  const ptt = new PushToTalk((s) => changes.push(s.talking));
  assert.equal(ptt.key(key(), true), false, 'off: Space is not push-to-talk\'s');
  ptt.setOn(true);
  changes.length = 0;
  const down = key();
  assert.equal(ptt.key(down, true), true);
  assert.equal(down.prevented, true, 'Space does not press the focused button nor scroll');
  assert.equal(ptt.talking, true);
  ptt.key(key({ repeat: true }), true);
  ptt.key(key({ repeat: true }), true);
  assert.deepEqual(changes, [true], 'a held key\'s repeats are one press');
  ptt.key(key(), false);
  assert.equal(ptt.talking, false);
  assert.equal(ptt.key(key({ composedPath: () => [{ tagName: 'INPUT' }, { tagName: 'BODY' }] }), true), false,
    'Space typed in a field');
  assert.equal(ptt.key(key({ code: 'KeyM' }), true), false);
  assert.equal(ptt.key(key({ ctrlKey: true }), true), false);
  assert.equal(ptt.talking, false);
  ptt.active = () => false;
  assert.equal(ptt.key(key(), true), false, 'not in the call');
  ptt.active = () => true;
  // The window loses the focus with the key down: its keyup never comes.
  const listeners = {};
  const target = { addEventListener: (type, fn) => { listeners[type] = fn; } };
  ptt.attach(target, target);
  listeners.keydown(key());
  assert.equal(ptt.talking, true);
  listeners.blur();
  assert.equal(ptt.talking, false);
  ptt.setOn(false);
  assert.deepEqual(changes.slice(-3), [true, false, false]);
});

test('newDevices: what came since the last listing, not the default and communications entries', () => {
  const before = [{ deviceId: 'default', label: 'Default' }, { deviceId: 'a', label: 'Built-in' }];
  const after = [{ deviceId: 'default', label: 'Default - USB Headset' }, { deviceId: 'communications', label: 'C' },
    { deviceId: 'a', label: 'Built-in' }, { deviceId: 'b', label: 'USB Headset' }, { deviceId: '', label: '' }];
  assert.deepEqual(newDevices(before, after), [{ deviceId: 'b', label: 'USB Headset' }]);
  assert.deepEqual(newDevices(after, before), []);
  assert.equal(offerText('USB Headset'), 'A new microphone is available: USB Headset. Switch?');
});

test('Devices: a microphone plugged in after the first listing is offered; the first listing offers none', async () => {
  const media = new EventTarget();
  let list = [{ deviceId: 'a', kind: 'audioinput', label: 'Built-in' },
    { deviceId: 'c', kind: 'videoinput', label: 'Cam' }];
  media.enumerateDevices = async () => list;
  Object.defineProperty(globalThis, 'navigator', { value: { mediaDevices: media }, configurable: true });
  const { Devices } = await import('../../Web/app/devices.js');
  const prefs = { devices: { audioinput: '', videoinput: '' }, saveDevices() {} };
  const devices = new Devices(prefs, () => {}, () => {});
  const offered = [];
  devices.onNewMicrophone = (d) => offered.push(d);
  await devices.refresh();
  assert.deepEqual(offered, [], 'nothing is new at the first listing');
  list = [...list, { deviceId: 'b', kind: 'audioinput', label: 'USB Headset' }];
  media.dispatchEvent(new Event('devicechange'));
  await new Promise(setImmediate);
  assert.deepEqual(offered, [{ deviceId: 'b', label: 'USB Headset' }]);
  assert.deepEqual(devices.lists.audioinput.map((d) => d.deviceId), ['a', 'b']);
  list = list.filter((d) => d.deviceId !== 'b');
  media.dispatchEvent(new Event('devicechange'));
  await new Promise(setImmediate);
  list = [...list, { deviceId: 'v2', kind: 'videoinput', label: 'Cam 2' }];
  media.dispatchEvent(new Event('devicechange'));
  await new Promise(setImmediate);
  assert.equal(offered.length, 1, 'a microphone unplugged, a camera plugged in: no offer');
});
