// The page's WebRTC mesh (app/mesh.js) on the real client and a fake WebSocket, with a fake RTCPeerConnection:
// a page in its lobby (never joined, or after leaving) answers no offer and takes no answer or candidate, so
// nobody's offer builds a peer with its camera and microphone; in the call it answers. `node --test Tests/Web/`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Mesh } from '../../Web/app/mesh.js';
import { MicCheckClient } from '../../Web/sdk/client.js';
import { FakeSocket } from './fake-socket.mjs';

class FakeStream {
  constructor(tracks = []) { this.tracks = [...tracks]; }
  getTracks() { return this.tracks; }
  getAudioTracks() { return this.tracks.filter((t) => t.kind === 'audio'); }
  getTrackById(id) { return this.tracks.find((t) => t.id === id) || null; }
  addTrack(t) { this.tracks.push(t); }
  removeTrack(t) { this.tracks = this.tracks.filter((x) => x !== t); }
}

// Enough of RTCPeerConnection for the mesh: an offer's m= lines make its transceivers; what the page puts on
// their senders is kept.
class FakePeerConnection {
  static made = [];
  constructor() {
    this.transceivers = [];
    this.remoteDescription = null;
    this.localDescription = null;
    this.candidates = [];
    this.connectionState = 'new';
    FakePeerConnection.made.push(this);
  }
  #transceiver(kind, direction) {
    const sender = { track: null, replaceTrack: async (track) => { sender.track = track; } };
    const t = { receiver: { track: { kind } }, sender, direction, currentDirection: null };
    this.transceivers.push(t);
    return t;
  }
  addTransceiver(kind, { direction }) { return this.#transceiver(kind, direction); }
  getTransceivers() { return this.transceivers; }
  async setRemoteDescription(d) {
    this.remoteDescription = d;
    if (d.type === 'offer') for (const [, kind] of d.sdp.matchAll(/^m=(\w+)/gm)) this.#transceiver(kind, 'recvonly');
  }
  async createOffer() { return { type: 'offer', sdp: this.#sdp() }; }
  async createAnswer() { return { type: 'answer', sdp: this.#sdp() }; }
  async setLocalDescription(d) { this.localDescription = d; }
  async addIceCandidate(c) { this.candidates.push(c); }
  close() { this.connectionState = 'closed'; }
  #sdp() { return this.transceivers.map((t) => `m=${t.receiver.track.kind} 9\r\na=${t.direction}\r\n`).join(''); }
}

const fakeCapture = { start: async () => {}, stop() {}, resume() {}, close() {} };
const microphone = { kind: 'audio', id: 'mic', label: 'Fake mic', enabled: true, addEventListener() {}, stop() {} };
const camera = { kind: 'video', id: 'cam', enabled: true, stop() {} };
const OFFER = { type: 'offer', sdp: 'v=0\r\nm=audio 9\r\na=sendrecv\r\nm=video 9\r\na=sendrecv\r\n' };
const CANDIDATE = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0' };

async function settled() {
  for (let i = 0; i < 5; i++) await new Promise(setImmediate);
}

test('the mesh ignores signals in the lobby and after leaving, and answers in the call', async (t) => {
  globalThis.RTCPeerConnection = FakePeerConnection;
  globalThis.MediaStream = FakeStream;
  t.after(() => { delete globalThis.RTCPeerConnection; delete globalThis.MediaStream; });
  FakeSocket.made = [];
  FakePeerConnection.made = [];
  const client = new MicCheckClient({ server: 'http://127.0.0.1:8080', call: 'standup', WebSocket: FakeSocket,
    capture: fakeCapture, stream: new FakeStream([microphone]) });
  t.after(() => client.close());  // its keep-alive timer, even when an assertion failed
  const mesh = new Mesh(client, () => {});
  mesh.setTracks({ audio: microphone, video: camera });
  await client.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.say({ type: 'welcome', id: 'me', capabilities: ['send-audio', 'send-video'] });
  const signals = () => ws.texts().filter((m) => m.type === 'signal');

  // In the lobby: an offer, an answer and a candidate from someone in the call.
  ws.say({ type: 'signal', from: 'bob', data: { description: OFFER } });
  ws.say({ type: 'signal', from: 'bob', data: { description: { type: 'answer', sdp: OFFER.sdp } } });
  ws.say({ type: 'signal', from: 'bob', data: { candidate: CANDIDATE } });
  await settled();
  assert.equal(FakePeerConnection.made.length, 0, 'no peer connection in the lobby');
  assert.equal(mesh.peers.size, 0);
  assert.deepEqual(signals(), [], 'no answer from the lobby');

  // In the call: the same offer is answered with this page's microphone and camera.
  client.join('Ada');
  ws.say({ type: 'signal', from: 'bob', data: { description: OFFER } });
  ws.say({ type: 'signal', from: 'bob', data: { candidate: CANDIDATE } });
  await settled();
  assert.equal(FakePeerConnection.made.length, 1);
  const pc = FakePeerConnection.made[0];
  assert.deepEqual(pc.transceivers.map((x) => [x.direction, x.sender.track?.id]), [['sendrecv', 'mic'],
    ['sendrecv', 'cam']]);
  assert.deepEqual(pc.candidates, [CANDIDATE]);
  assert.deepEqual(signals().map((m) => [m.to, m.data.description.type]), [['bob', 'answer']]);

  // Left (the page closes its peers as it leaves): a late offer, answer or candidate builds nothing.
  client.leave();
  mesh.closeAll();
  ws.say({ type: 'signal', from: 'carol', data: { description: OFFER } });
  ws.say({ type: 'signal', from: 'bob', data: { description: OFFER } });
  ws.say({ type: 'signal', from: 'bob', data: { candidate: CANDIDATE } });
  await settled();
  assert.equal(FakePeerConnection.made.length, 1, 'no peer connection after leaving');
  assert.equal(mesh.peers.size, 0);
  assert.equal(signals().length, 1, 'no answer after leaving');
});
