// Acme Meet, another team's call page on its own origin, using MicCheck from `miccheck serve`:
//   miccheck serve --port 8080 --allow-origin http://127.0.0.1:8000
//   python3 -m http.server 8000 --directory Examples/web-embed   # then open http://127.0.0.1:8000/
// The page opens its own MediaStream (as it would for its call SDK) and gives it to MicCheckClient; it shows
// MicCheck's stock lobby with one piece replaced (its own participant tile), and its own muted toast.
import './acme-tile.js';

const params = new URLSearchParams(location.search);
const server = params.get('server') || 'http://127.0.0.1:8080';
const call = params.get('call') || 'acme-demo';
const $ = (id) => document.getElementById(id);

function problem(text) {
  $('problem').hidden = false;
  $('problem').textContent = text;
}

async function main() {
  const { MicCheckClient, createViewFactory } = await import(`${server}/sdk/miccheck.js`);
  // One method replaced; every other view stays MicCheck's.
  const factory = createViewFactory({ makeVideoParticipantView: () => document.createElement('acme-tile') });
  const lobby = factory.makeLobbyView();
  const grid = factory.makeCallGridView();
  $('lobby').append(lobby);
  $('grid').append(grid);

  // The app's own stream: MicCheck listens to its audio track; the video is the app's to send.
  let stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
  const client = new MicCheckClient({ server, call, stream });
  const settings = { audio: true, video: true, speaker: true };
  const chosen = { audioinput: '', videoinput: '', audiooutput: '' };
  let devices = { audioinput: [], videoinput: [], audiooutput: [] };
  const listDevices = async () => {
    const all = await navigator.mediaDevices.enumerateDevices();
    devices = { audioinput: [], videoinput: [], audiooutput: [] };
    for (const d of all) devices[d.kind]?.push({ deviceId: d.deviceId, label: d.label || d.kind });
    draw();
  };
  // A device chosen in the lobby, or the microphone unplugged: the app opens the stream, MicCheck follows it.
  const reopen = async () => {
    const next = await navigator.mediaDevices.getUserMedia({
      audio: chosen.audioinput ? { deviceId: { exact: chosen.audioinput } } : true,
      video: chosen.videoinput ? { deviceId: { exact: chosen.videoinput } } : true,
    });
    for (const t of stream.getTracks()) t.stop();
    stream = next;
    await client.setStream(stream);
    draw();
  };
  const draw = () => {
    lobby.state = { call, settings, allowed: { audio: true, video: true }, others: client.others(),
      selfStream: stream, devices, chosen };
    if (client.joined) {
      grid.update([...client.participants.values()].map((p) => ({ ...p, self: p.id === client.me })),
        { me: client.me, speakerOn: true, streamOf: (id) => (id === client.me ? stream : null) });
    }
  };

  client.addEventListener('microphone', (e) => { lobby.microphone = e.detail; });
  client.addEventListener('presence', draw);
  client.addEventListener('speaking', draw);
  client.addEventListener('connection', (e) => { lobby.state = { status: e.detail.message }; });
  client.addEventListener('microphoneended', (e) => {
    chosen.audioinput = '';
    lobby.state = { deviceNote: `The microphone ${e.detail.label} was disconnected: using the default one.` };
    reopen().catch((error) => problem(`No microphone: ${error.message}`));
  });
  lobby.addEventListener('miccheck-choose-device', (e) => {
    chosen[e.detail.kind] = e.detail.deviceId;
    if (e.detail.kind !== 'audiooutput') reopen().catch((error) => problem(`That device: ${error.message}`));
  });
  navigator.mediaDevices.addEventListener('devicechange', listDevices);
  document.addEventListener('keydown', (e) => {
    if (!$('acme-toast').hidden && e.key.toLowerCase() === 'm') $('acme-unmute').click();
  });
  // Acme's own toast in place of <miccheck-muted-notice>.
  let hideTimer = null;
  client.addEventListener('mutednotice', (e) => {
    $('acme-toast').hidden = !e.detail.show;
    $('acme-toast-text').textContent = `🔇 ${e.detail.text}`;
    clearTimeout(hideTimer);
    if (e.detail.show) hideTimer = setTimeout(() => { $('acme-toast').hidden = true; }, e.detail.durationMs);
  });
  $('acme-unmute').addEventListener('click', () => {
    $('acme-toast').hidden = true;
    if (!settings.audio) $('mute').click();
  });
  lobby.addEventListener('miccheck-toggle', (e) => {
    const { kind } = e.detail;
    settings[kind] = !settings[kind];
    if (kind === 'audio') client.setMuted(!settings.audio);
    if (kind === 'video') client.setVideo(settings.video);
    draw();
  });
  lobby.addEventListener('miccheck-join', (e) => {
    client.resume();
    client.join(e.detail.name || 'Acme guest');
    $('lobby').hidden = true;
    $('call').hidden = false;
    draw();
  });
  $('mute').addEventListener('click', () => {
    settings.audio = !settings.audio;
    client.setMuted(!settings.audio);
    $('mute').setAttribute('aria-pressed', String(!settings.audio));
    draw();
  });
  $('leave').addEventListener('click', () => {
    client.leave();
    $('call').hidden = true;
    $('lobby').hidden = false;
  });

  window.acme = { client, factory, lobby, grid };
  client.setVideo(true);
  await client.start();
  await listDevices();
}

main().catch((error) => problem(`MicCheck could not start: ${error.message || error}`));
