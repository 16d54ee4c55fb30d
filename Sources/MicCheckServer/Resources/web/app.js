// MicCheck's lobby and call page. The server (miccheck serve) analyses this page's microphone and decides the
// microphone check, "You are muted." and who is speaking; the page captures, draws, and connects to the
// other participants' browsers over WebRTC (signalling through the server; no media passes through it).

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const callId = (params.get('call') || 'call').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 64) || 'call';
// Audio processing stays on for people; tests with a file as the microphone turn it off.
const processing = params.get('audio_processing') !== 'off';
const store = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(`miccheck.${key}`);
      return v === null ? fallback : JSON.parse(v);
    } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(`miccheck.${key}`, JSON.stringify(value)); } catch { /* private mode */ }
  },
};

// Choices, remembered in the browser and used after joining (as LiveKit's PreJoin does).
// The toggles: the lobby's button, the call's button, and the setting they change.
const TOGGLES = [['toggle-audio', 'call-audio', 'audio'], ['toggle-video', 'call-video', 'video'],
  ['toggle-speaker', 'call-speaker', 'speaker']];
const prefs = Object.assign({ audio: true, video: true, speaker: true, micId: '', cameraId: '', speakerId: '' },
  store.get('devices', {}));
const state = {
  me: null, joined: false, version: null, members: new Map(), peers: new Map(),
  stream: null, audioContext: null, worklet: null, ws: null, mutedNoticeOff: store.get(`muted-off.${callId}`, false),
  denied: { microphone: false, camera: false }, noticeTimer: null, capabilities: null, retryDelay: 1000,
};

// For tests and debugging in the browser's console: the page's state (its stream, members, peers).
window.miccheck = state;

function initials(name) {
  const parts = (name || '?').trim().split(/\s+/).filter(Boolean);
  return ((parts[0] || '?')[0] + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

function savePrefs() { store.set('devices', prefs); }

// ---- The server connection -------------------------------------------------------------------------

function connect() {
  // An invitation's join token comes in the page's address and goes to the server with the connection.
  const token = params.get('token');
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/v1/call?call=${encodeURIComponent(callId)}`
    + (token ? `&token=${encodeURIComponent(token)}` : ''));
  ws.binaryType = 'arraybuffer';
  state.ws = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    state.retryDelay = 1000;
    $('connection').hidden = true;
    sendDevices();
    if (state.mutedNoticeOff) send({ type: 'muted_notice_off' });
    // A page that sends no audio (a microphone denied) would be taken for gone after the idle timeout.
    const keepAlive = setInterval(() => send({ type: 'keep_alive' }), 4000);
    ws.addEventListener('close', () => clearInterval(keepAlive));
  };
  ws.onmessage = (e) => { if (typeof e.data === 'string') receive(JSON.parse(e.data)); };
  ws.onclose = async (e) => {
    state.members.clear();
    state.version = null;
    const wasJoined = state.joined;
    state.joined = false;
    for (const id of [...state.peers.keys()]) closePeer(id);
    // Refused (the server opens the connection and closes it at once with 4000 + the HTTP status and the
    // reason): a refusal will not change on a retry, so say it once and stop.
    if (e.code >= 4400 && e.code < 4500) {
      $('connection').hidden = false;
      $('connection').textContent = e.code === 4401
        ? `This invitation cannot be used: ${e.reason}. Ask for a new link.`
        : `The server refused this page: ${e.reason}.`;
      $('join').disabled = true;
      return;
    }
    // Refused before it opened (a proxy, an older server): a browser shows no reason (1006), so ask once why.
    // An invitation that the
    // server refuses (401: expired, another call's, not this server's) will not work on a retry either.
    if (!opened) {
      const refusal = await refusedInvitation(token);
      if (refusal) {
        $('connection').hidden = false;
        $('connection').textContent = `This invitation cannot be used: ${refusal}. Ask for a new link.`;
        $('join').disabled = true;
        return;
      }
    }
    $('connection').hidden = false;
    $('connection').textContent = `Disconnected from the server${e.reason ? `: ${e.reason}` : ''}. Reconnecting…`;
    const delay = state.retryDelay;
    state.retryDelay = Math.min(delay * 2, 10000);
    setTimeout(() => { connect(); if (wasJoined) state.rejoin = true; }, delay);
  };
}

// The server's reason for refusing this page's invitation, or null when it does not refuse it (or cannot
// be reached: then the page just tries again).
async function refusedInvitation(token) {
  try {
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const r = await fetch(`/v1/calls/${encodeURIComponent(callId)}${query}`);
    if (r.status !== 401) return null;
    const text = await r.text();
    try { return JSON.parse(text).error.message; } catch { return text.trim() || 'refused'; }
  } catch {
    return null;
  }
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(message));
}

// What this participant may send: all until the server's welcome says otherwise (an invitation's role).
function allowed(key) {
  const needs = { audio: 'send-audio', video: 'send-video' }[key];
  return !needs || !state.capabilities || state.capabilities.includes(needs);
}

// Whether a toggle is on: the user's choice, within what the invitation allows.
function toggledOn(key) { return prefs[key] && allowed(key); }

function sendDevices() {
  send({
    type: 'devices', audio: toggledOn('audio') && !state.denied.microphone,
    video: toggledOn('video') && !state.denied.camera,
  });
}

function receive(m) {
  switch (m.type) {
    case 'welcome':
      state.me = m.id;
      state.capabilities = m.capabilities || [];
      applyToggles();
      if (m.name) { $('name').value = m.name; $('name').readOnly = true; }
      if (state.rejoin) { state.rejoin = false; join(); }
      break;
    case 'microphone': showMicrophone(m); break;
    case 'muted_notice': showMutedNotice(m); break;
    case 'presence':
      state.version = m.version;
      state.members = new Map(m.participants.map((p) => [p.id, p]));
      membersChanged();
      break;
    case 'joined': case 'updated': case 'left':
      // The version rule (Guides/Browser.md, "Presence"): the next version applies, one already seen is
      // dropped, one further ahead means changes were missed: ask for a snapshot.
      if (state.version === null || m.version > state.version + 1) { send({ type: 'resync' }); return; }
      if (m.version <= state.version) return;
      state.version = m.version;
      if (m.type === 'left') {
        state.members.delete(m.id);
        closePeer(m.id);
      } else state.members.set(m.participant.id, m.participant);
      if (m.type === 'joined' && m.participant.id === state.me) startPeers();
      membersChanged();
      break;
    case 'signal': onSignal(m.from, m.data); break;
    case 'error': console.warn('miccheck:', m.message); break;
  }
}

// ---- Capture -----------------------------------------------------------------------------------------

async function openDevices() {
  const audio = { echoCancellation: processing, noiseSuppression: processing, autoGainControl: processing };
  if (prefs.micId) audio.deviceId = { exact: prefs.micId };
  const video = prefs.cameraId ? { deviceId: { exact: prefs.cameraId } } : true;
  let stream = null;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio, video });
  } catch (error) {
    if (error.name === 'NotFoundError' || error.name === 'OverconstrainedError') {
      // A remembered device is gone: fall back to the defaults, and say so.
      prefs.micId = ''; prefs.cameraId = ''; savePrefs();
      $('device-note').hidden = false;
      $('device-note').textContent = 'A device you chose before is not connected: using the default one.';
      return openDevices();
    }
    if (error.name !== 'NotAllowedError') throw error;
    // Which of the two is refused: ask for each alone.
    const mic = await navigator.mediaDevices.getUserMedia({ audio }).catch((e) => e);
    const cam = await navigator.mediaDevices.getUserMedia({ video }).catch((e) => e);
    state.denied.microphone = mic instanceof Error || (mic && mic.name === 'NotAllowedError');
    state.denied.camera = cam instanceof Error || (cam && cam.name === 'NotAllowedError');
    const tracks = [mic, cam].filter((s) => s instanceof MediaStream).flatMap((s) => s.getTracks());
    stream = tracks.length ? new MediaStream(tracks) : null;
    showPermissionPrompt();
  }
  state.stream = stream;
  applyToggles();
  if (stream && stream.getAudioTracks().length) await startAudio(stream);
  await listDevices();
  showPreview();
}

async function startAudio(stream) {
  if (!state.audioContext) {
    state.audioContext = new AudioContext();
    await state.audioContext.audioWorklet.addModule('/pcm-worklet.js');
  }
  if (state.source) state.source.disconnect();
  state.source = state.audioContext.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
  if (!state.worklet) {
    state.worklet = new AudioWorkletNode(state.audioContext, 'pcm-downsampler');
    state.worklet.port.onmessage = (e) => {
      // While muted in the call the audio still goes to MicCheck (for "You are muted."), never to others.
      const inCallMuted = state.joined && !prefs.audio;
      if ((prefs.audio || inCallMuted) && state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(e.data);
    };
    // The worklet needs a path to the output to run; it writes nothing to it.
    const sink = state.audioContext.createGain();
    sink.gain.value = 0;
    state.worklet.connect(sink).connect(state.audioContext.destination);
  }
  state.source.connect(state.worklet);
  if (state.audioContext.state === 'suspended') state.audioContext.resume().catch(() => {});
}

async function listDevices() {
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
  const fill = (select, kind, chosen) => {
    select.replaceChildren(...devices.filter((d) => d.kind === kind).map((d, i) => {
      const o = document.createElement('option');
      o.value = d.deviceId;
      o.textContent = d.label || `${kind} ${i + 1}`;
      o.selected = d.deviceId === chosen;
      return o;
    }));
  };
  fill($('mic-select'), 'audioinput', prefs.micId);
  fill($('camera-select'), 'videoinput', prefs.cameraId);
  fill($('speaker-select'), 'audiooutput', prefs.speakerId);
}

// ---- The lobby -----------------------------------------------------------------------------------------

function showPreview() {
  const video = $('preview');
  const track = state.stream && state.stream.getVideoTracks()[0];
  const on = !!track && toggledOn('video') && !state.denied.camera;
  if (on && video.srcObject !== state.stream) video.srcObject = state.stream;
  video.hidden = !on;
  $('preview-fallback').hidden = on;
  $('preview-fallback').querySelector('.initials').textContent = initials($('name').value);
}

function showMicrophone(m) {
  const display = m.on ? m.display : 0;
  $('meter-level').style.width = `${Math.round(display * 100)}%`;
  $('meter').setAttribute('aria-valuenow', String(display));
  $('meter').dataset.levelDb = String(m.level_db);
  const warning = $('mic-warning');
  warning.hidden = !m.not_working;
  warning.textContent = m.not_working || '';
  $('mic-warnings').replaceChildren(...m.warnings.map((w) => {
    const li = document.createElement('li');
    li.textContent = w;
    return li;
  }));
}

function othersCount() { return [...state.members.keys()].filter((id) => id !== state.me).length; }

function membersChanged() {
  const n = othersCount();
  $('count').textContent = n === 0 ? 'Nobody else is in the call yet.'
    : n === 1 ? 'There is 1 more person in the call.' : `There are ${n} more people in the call.`;
  if (state.joined) renderTiles();
}

function applyToggles() {
  for (const [lobby, call, key] of TOGGLES) {
    for (const id of [lobby, call]) {
      // A toggle the invitation's role forbids is off and cannot be turned on.
      $(id).disabled = !allowed(key);
      $(id).title = allowed(key) ? '' : `Your invitation does not let you send ${key}.`;
      $(id).setAttribute('aria-pressed', String(toggledOn(key)));
    }
  }
  if (state.stream) {
    // Tracks sent to the others follow the toggles; capture for MicCheck keeps running while muted.
    for (const peer of state.peers.values()) {
      for (const sender of peer.pc.getSenders()) {
        if (sender.track && sender.track.kind === 'audio') sender.track.enabled = toggledOn('audio');
      }
    }
    for (const t of state.stream.getVideoTracks()) t.enabled = toggledOn('video');
  }
  for (const v of document.querySelectorAll('video.remote')) v.muted = !prefs.speaker;
  showPreview();
}

function toggle(key) {
  prefs[key] = !prefs[key];
  savePrefs();
  applyToggles();
  sendDevices();
  if (state.joined) renderTiles();
}

// ---- Permissions ----------------------------------------------------------------------------------------

function showPermissionPrompt() {
  const { microphone, camera } = state.denied;
  if (!microphone && !camera) return;
  const kind = microphone && camera ? 'camera-and-microphone' : microphone ? 'microphone' : 'camera';
  if (store.get(`prompt-dismissed.${callId}`, []).includes(kind)) return;
  const texts = {
    'camera-and-microphone': ['Camera and microphone access required',
      'The call lets you speak and show video, but this page cannot use your camera or your microphone.'],
    camera: ['Camera access required', 'The call lets you show video, but this page cannot use your camera.'],
    microphone: ['Microphone access required', 'The call lets you speak, but this page cannot use your microphone.'],
  }[kind];
  $('prompt-title').textContent = texts[0];
  $('prompt-message').textContent = texts[1];
  $('permission-prompt').dataset.kind = kind;
  $('permission-prompt').hidden = false;
}

// ---- The call ------------------------------------------------------------------------------------------

function join() {
  const name = $('name').value.trim() || 'Guest';
  store.set('name', name);
  state.joined = true;
  send({ type: 'join', name });
  $('lobby').hidden = true;
  $('left').hidden = true;
  $('call').hidden = false;
  renderTiles();
}

function leave() {
  send({ type: 'leave' });
  state.joined = false;
  for (const id of [...state.peers.keys()]) closePeer(id);
  $('call').hidden = true;
  $('left').hidden = false;
  hideMutedNotice();
}

function tileFor(id) {
  let tile = document.querySelector(`.tile[data-id="${CSS.escape(id)}"]`);
  if (!tile) {
    tile = document.createElement('div');
    tile.className = 'tile';
    tile.dataset.id = id;
    const video = document.createElement('video');
    video.autoplay = true;
    video.playsInline = true;
    if (id === state.me) { video.muted = true; video.classList.add('self'); } else video.classList.add('remote');
    const fallback = document.createElement('div');
    fallback.className = 'fallback';
    fallback.innerHTML = '<span class="initials"></span>';
    const label = document.createElement('div');
    label.className = 'label';
    tile.append(video, fallback, label);
    $('tiles').append(tile);
  }
  return tile;
}

function renderTiles() {
  const members = [...state.members.values()];
  const ids = new Set(members.map((m) => m.id));
  for (const tile of document.querySelectorAll('.tile')) if (!ids.has(tile.dataset.id)) tile.remove();
  for (const m of members) {
    const tile = tileFor(m.id);
    const video = tile.querySelector('video');
    const mine = m.id === state.me;
    const p = state.peers.get(m.id);
    const stream = mine ? state.stream : p && permitted(p, m);
    if (stream && video.srcObject !== stream) video.srcObject = stream;
    if (!mine) video.muted = !prefs.speaker;
    const track = stream && stream.getVideoTracks()[0];
    // Video only when they send it, the track is there and live, and it is not paused (muted) by the network.
    const showVideo = m.video && !!track && track.readyState === 'live' && !track.muted;
    video.hidden = !showVideo;
    tile.querySelector('.fallback').hidden = showVideo;
    tile.querySelector('.initials').textContent = initials(m.name);
    tile.querySelector('.label').textContent = `${m.name}${mine ? ' (you)' : ''}${m.audio ? '' : ' · muted'}`;
    // A speaking border only when someone speaks and there is more than one participant.
    tile.classList.toggle('speaking', m.speaking && members.length > 1);
    tile.dataset.video = String(showVideo);
    tile.dataset.speaking = String(m.speaking);
  }
}

// The tracks of a peer that its presence says it sends: a track of a medium whose toggle is off (or that
// its role may not send, which the server also refuses in its offers) is never played.
function permitted(p, m) {
  p.shown = p.shown || new MediaStream();
  for (const t of p.stream.getTracks()) {
    const ok = t.kind === 'audio' ? m.audio : m.video;
    const has = !!p.shown.getTrackById(t.id);
    if (ok && !has) p.shown.addTrack(t); else if (!ok && has) p.shown.removeTrack(t);
  }
  return p.shown;
}

function showMutedNotice(m) {
  if (!m.show) { hideMutedNotice(); return; }
  if (state.mutedNoticeOff) return;
  $('muted-text').textContent = m.text;
  $('muted-notice').hidden = false;
  clearTimeout(state.noticeTimer);
  state.noticeTimer = setTimeout(hideMutedNotice, m.duration_ms);
}

function hideMutedNotice() { $('muted-notice').hidden = true; }

// ---- WebRTC: a mesh; the one who joins calls everyone already there -----------------------------------------

function peer(id) {
  let p = state.peers.get(id);
  if (p) return p;
  const pc = new RTCPeerConnection({ iceServers: [] });
  p = { pc, stream: new MediaStream(), pending: [] };
  state.peers.set(id, p);
  if (state.stream) {
    for (const track of state.stream.getTracks()) {
      // Only what this participant may send (a listener sends nothing; the server refuses offers that would).
      if (!allowed(track.kind)) continue;
      // The others get a copy of the microphone, which the toggle turns off; the page's own capture goes
      // on feeding MicCheck while muted.
      const sent = track.kind === 'audio' ? track.clone() : track;
      const sender = pc.addTrack(sent, state.stream);
      if (track.kind === 'audio') sender.track.enabled = toggledOn('audio');
    }
  }
  pc.onicecandidate = (e) => {
    if (e.candidate) send({ type: 'signal', to: id, data: { candidate: e.candidate.toJSON() } });
  };
  pc.ontrack = (e) => {
    p.stream.addTrack(e.track);
    e.track.onmute = e.track.onunmute = e.track.onended = () => renderTiles();
    renderTiles();
  };
  return p;
}

function closePeer(id) {
  const p = state.peers.get(id);
  if (!p) return;
  p.pc.close();
  state.peers.delete(id);
}

async function startPeers() {
  for (const id of state.members.keys()) {
    if (id === state.me || state.peers.has(id)) continue;
    const { pc } = peer(id);
    // Receive what this page does not send (a listener, a camera denied): an offer without a section for a
    // kind gets none of it back.
    const sent = new Set(pc.getTransceivers().map((t) => t.sender.track && t.sender.track.kind));
    for (const kind of ['audio', 'video']) if (!sent.has(kind)) pc.addTransceiver(kind, { direction: 'recvonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const description = { type: pc.localDescription.type, sdp: pc.localDescription.sdp };
    send({ type: 'signal', to: id, data: { description } });
  }
}

async function onSignal(from, data) {
  const p = peer(from);
  try {
    if (data.description) {
      await p.pc.setRemoteDescription(data.description);
      for (const c of p.pending.splice(0)) await p.pc.addIceCandidate(c);
      if (data.description.type === 'offer') {
        await p.pc.setLocalDescription(await p.pc.createAnswer());
        const description = { type: p.pc.localDescription.type, sdp: p.pc.localDescription.sdp };
        send({ type: 'signal', to: from, data: { description } });
      }
    } else if (data.candidate) {
      if (p.pc.remoteDescription) await p.pc.addIceCandidate(data.candidate); else p.pending.push(data.candidate);
    }
  } catch (error) {
    console.warn('miccheck: signalling with', from, 'failed:', error);
  }
}

// ---- Wiring ---------------------------------------------------------------------------------------------

function wire() {
  $('name').value = store.get('name', params.get('name') || '');
  if (params.get('name')) $('name').value = params.get('name');
  $('name').addEventListener('input', showPreview);
  for (const [a, b, key] of TOGGLES) {
    $(a).addEventListener('click', () => toggle(key));
    $(b).addEventListener('click', () => toggle(key));
  }
  $('mic-select').addEventListener('change', (e) => { prefs.micId = e.target.value; savePrefs(); reopen(); });
  $('camera-select').addEventListener('change', (e) => { prefs.cameraId = e.target.value; savePrefs(); reopen(); });
  $('speaker-select').addEventListener('change', async (e) => {
    prefs.speakerId = e.target.value;
    savePrefs();
    for (const v of document.querySelectorAll('video.remote')) {
      if (v.setSinkId) await v.setSinkId(prefs.speakerId).catch(() => {});
    }
  });
  $('join').addEventListener('click', () => { state.audioContext?.resume(); join(); });
  $('leave').addEventListener('click', leave);
  $('rejoin').addEventListener('click', () => { $('left').hidden = true; $('lobby').hidden = false; });
  $('muted-off').addEventListener('click', () => {
    state.mutedNoticeOff = true;
    store.set(`muted-off.${callId}`, true);
    send({ type: 'muted_notice_off' });
    hideMutedNotice();
  });
  $('prompt-settings').addEventListener('click', () => { $('prompt-steps').hidden = false; });
  $('prompt-dismiss').addEventListener('click', () => {
    const kind = $('permission-prompt').dataset.kind;
    store.set(`prompt-dismissed.${callId}`, [...new Set([...store.get(`prompt-dismissed.${callId}`, []), kind])]);
    $('permission-prompt').hidden = true;
  });
}

async function reopen() {
  for (const t of state.stream ? state.stream.getTracks() : []) t.stop();
  await openDevices().catch(showCaptureError);
}

function showCaptureError(error) {
  $('device-note').hidden = false;
  $('device-note').textContent = `The camera or microphone could not be opened: ${error.message || error.name}.`;
}

wire();
connect();
openDevices().catch(showCaptureError);
