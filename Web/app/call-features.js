// What MicCheck's page adds to the call around main.js's toggles: push-to-talk (the toolbar's toggle and the
// Space key), a host's mute (the tiles' Mute buttons; "Grace muted you." on the muted page), the typing
// notice with its Mute button, the server's refusals, and the offer of a microphone plugged in meanwhile.
import { DeviceOffer } from './device-offer.js';
import { PushToTalk } from './push-to-talk.js';

/**
 * @param {object} page main.js's pieces: `client`, `devices`, `factory`, `joined()`, `micOn()` (the
 *   microphone toggle is on), `setMic(on)` (turns the toggle on or off), `apply()` (applyToggles), `drawAll()`
 * @returns {{microphone(on: boolean): {live: boolean, cause: string}, controls(): object, left(): void}}
 */
export function wireCallFeatures(page) {
  const { client, devices } = page;
  const typingNotice = page.factory.makeTypingNoticeView();
  const banner = document.createElement('p');
  banner.id = 'call-banner';
  banner.className = 'banner';
  banner.setAttribute('role', 'status');
  document.getElementById('grid').before(banner);
  const say = (text) => { banner.textContent = text; };
  const offer = new DeviceOffer(async (device) => {
    await devices.choose('audioinput', device.deviceId, client);
    page.drawAll();
  });
  document.body.append(typingNotice, offer.element);
  devices.onNewMicrophone = (device) => offer.offer(device);

  const ptt = new PushToTalk(() => page.apply());
  ptt.active = () => page.joined();
  ptt.attach(document, window);

  client.addEventListener('mutedbyhost', (e) => {
    ptt.talking = false;
    page.setMic(false);
    say(e.detail.text);
  });
  client.addEventListener('typingnotice', (e) => {
    if (e.detail.show && page.joined() && page.micOn()) typingNotice.show(e.detail);
    else if (!e.detail.show) typingNotice.hide();
  });
  // The server's refusals (a mute by someone who may not, of someone who left) are said in the call.
  client.addEventListener('error', (e) => {
    if (page.joined()) say(`The server refused: ${e.detail.message}.`);
  });
  document.addEventListener('miccheck-push-to-talk', (e) => ptt.setOn(e.detail.on));
  document.addEventListener('miccheck-mute', () => {
    if (page.micOn()) page.setMic(false);
  });
  document.addEventListener('miccheck-mute-participant', (e) => {
    try {
      client.muteParticipant(e.detail.id);
    } catch (error) {
      say(error.message);
    }
  });

  return {
    /** Whether the microphone is live (on, and in push-to-talk Space held), and a mute's cause. */
    microphone(on) {
      if (on && client.muteCause === 'host') say('');
      if (!on) typingNotice.hide();
      return { live: on && (!ptt.on || ptt.talking),
        cause: on ? 'push-to-talk' : client.muteCause === 'host' ? 'host' : 'self' };
    },
    /** The toolbar's push-to-talk state. */
    controls: () => ({ pushToTalk: ptt.on, talking: ptt.on && ptt.talking }),
    left() {
      ptt.talking = false;
      typingNotice.hide();
      say('');
    },
  };
}
