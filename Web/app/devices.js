// The page's camera, the lists of devices to choose from, and the choices: a remembered device that is gone
// falls back to the default and says so; one unplugged mid-call too. (The microphone is the client's.)
import { DeviceOpener, stopTracks } from '../sdk/microphone.js';
import { newDevices } from './device-offer.js';

const NAMES = { audioinput: 'Microphone', videoinput: 'Camera', audiooutput: 'Speaker' };

export class Devices {
  /**
   * @param {import('./prefs.js').Prefs} prefs
   * @param {(note: string) => void} onNote a sentence for the user (a device fell back)
   * @param {() => void} onCamera the camera's stream changed (opened, closed, another one)
   */
  constructor(prefs, onNote, onCamera) {
    this.prefs = prefs;
    this.onNote = onNote;
    this.onCamera = onCamera;
    this.camera = null;
    this.forbidden = false;
    this.denied = false;
    this.problem = '';
    this.opener = new DeviceOpener();
    this.lists = { audioinput: [], videoinput: [], audiooutput: [] };
    this.listed = false;
    /** A microphone came that was not there at the last listing (none is new at the first). */
    this.onNewMicrophone = () => {};
    navigator.mediaDevices?.addEventListener('devicechange', () => this.refresh());
  }

  /** Opens the chosen camera, or the default; not once the page may not send video (`forbid`). */
  async openCamera() {
    if (this.forbidden) return;
    const opened = await this.opener.open('video', {}, this.prefs.devices.videoinput);
    if (!opened) return;
    stopTracks(this.camera);
    this.denied = opened.denied;
    this.problem = opened.unavailable ? `The camera could not be opened (${opened.error}); is another program `
      + 'using it?' : '';
    this.camera = opened.stream;
    if (opened.fellBack) {
      this.prefs.devices.videoinput = '';
      this.prefs.saveDevices();
      this.onNote('The camera you chose before is not connected: using the default one.');
    }
    const track = this.camera?.getVideoTracks()[0];
    track?.addEventListener('ended', () => this.#ended(track));
    this.onCamera();
  }

  /** The call does not let this page send video (a listener): the camera closes and stays closed. */
  forbid() {
    this.forbidden = true;
    this.opener.cancel();
    stopTracks(this.camera);
    this.camera = null;
    this.onCamera();
  }

  async #ended(track) {
    if (this.camera?.getVideoTracks()[0] !== track) return;
    this.prefs.devices.videoinput = '';
    await this.openCamera();
    this.onNote(`The camera ${track.label || 'in use'} was disconnected: ${this.camera ? 'using the default one'
      : 'no other camera is connected'}.`);
  }

  /** Lists the devices again (after a permission, or when one comes or goes). */
  async refresh() {
    const all = await navigator.mediaDevices?.enumerateDevices().catch(() => []) ?? [];
    const lists = { audioinput: [], videoinput: [], audiooutput: [] };
    for (const d of all) {
      const list = lists[d.kind];
      if (list) list.push({ deviceId: d.deviceId, label: d.label || `${NAMES[d.kind]} ${list.length + 1}` });
    }
    const added = this.listed ? newDevices(this.lists.audioinput, lists.audioinput) : [];
    this.lists = lists;
    this.listed = true;
    this.onCamera();
    if (added.length > 0) this.onNewMicrophone(added.at(-1));
  }

  /** The user chose a device of `kind`; the microphone is the client's to open. */
  async choose(kind, deviceId, client) {
    this.prefs.devices[kind] = deviceId;
    this.prefs.saveDevices();
    if (kind === 'audioinput') await client.openMicrophone({ deviceId });
    else if (kind === 'videoinput') await this.openCamera();
    else this.onCamera();
  }
}
