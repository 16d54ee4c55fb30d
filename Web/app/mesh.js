// The call's media: a WebRTC mesh, browser to browser; the one who joins offers to everyone already there.
// Signalling goes through MicCheck's server (`client.signal`); no media passes through it.
//
// Every peer connection has one audio and one video transceiver from its first offer, whether or not this
// page has a microphone or a camera yet: a track opened later (a slow camera, a permission answered after
// Join, another device) is put in with `replaceTrack`, which needs no new offer. A kind this participant may
// not send (a listener) is `recvonly`, which the server also checks in every description.
//
// Only a page in the call takes part in the mesh: signals that reach it in its lobby (never joined, or after
// leaving) are dropped, so that nobody's offer builds a peer with this page's camera and microphone before
// Join (the server, too, delivers signals only to participants in the call).

export class Mesh {
  /**
   * @param {import('../sdk/client.js').MicCheckClient} client
   * @param {() => void} onChange called when a peer's tracks change (the tiles redraw)
   */
  constructor(client, onChange) {
    this.client = client;
    this.onChange = onChange;
    this.peers = new Map();
    // What this page sends: a copy of the microphone (the toggle turns it off; the capture for MicCheck goes on
    // while muted) and the camera's track.
    this.local = { audio: null, video: null };
    client.addEventListener('signal', (e) => this.#signal(e.detail.from, e.detail.data));
  }

  /** The microphone's track (copied for the others) and the camera's, or null; the peers get them at once. */
  setTracks({ audio = this.local.audio, video = this.local.video }) {
    if (audio !== this.local.audio && this.local.audio) this.local.audio.stop();
    this.local = { audio, video };
    for (const p of this.peers.values()) this.#attach(p);
  }

  /** The microphone the others hear: on or off (muted). */
  setAudioEnabled(on) { if (this.local.audio) this.local.audio.enabled = on; }

  /** Offers to every participant this page has no connection with yet (after joining). */
  async offerTo(ids) {
    for (const id of ids) {
      if (id === this.client.me || this.peers.has(id)) continue;
      const p = this.#peer(id);
      for (const kind of ['audio', 'video']) p.pc.addTransceiver(kind, { direction: this.#direction(kind) });
      this.#attach(p);
      try {
        await p.pc.setLocalDescription(await p.pc.createOffer());
        this.#send(id, { description: this.#description(p.pc) });
      } catch (error) {
        console.warn('miccheck: an offer to', id, 'failed:', error);
      }
    }
  }

  /** The tracks a participant sends and its presence says are on: a track of a medium turned off is not played. */
  streamOf(participant) {
    const p = this.peers.get(participant.id);
    if (!p) return null;
    for (const t of p.received.getTracks()) {
      const on = t.kind === 'audio' ? participant.audio : participant.video;
      const has = !!p.shown.getTrackById(t.id);
      if (on && !has) p.shown.addTrack(t);
      else if (!on && has) p.shown.removeTrack(t);
    }
    return p.shown;
  }

  close(id) {
    const p = this.peers.get(id);
    if (!p) return;
    p.pc.close();
    this.peers.delete(id);
  }

  closeAll() { for (const id of [...this.peers.keys()]) this.close(id); }

  #direction(kind) { return this.client.may(kind) ? 'sendrecv' : 'recvonly'; }

  #peer(id) {
    let p = this.peers.get(id);
    if (p) return p;
    const pc = new RTCPeerConnection({ iceServers: [] });
    p = { pc, received: new MediaStream(), shown: new MediaStream(), pending: [] };
    this.peers.set(id, p);
    pc.onicecandidate = (e) => { if (e.candidate) this.#send(id, { candidate: e.candidate.toJSON() }); };
    // A connection that fails (ICE found no path, a network change) is closed and made again by the side
    // whose id sorts first, so that the two do not offer at once.
    pc.onconnectionstatechange = () => {
      if (pc.connectionState !== 'failed' || this.peers.get(id) !== p) return;
      this.close(id);
      this.onChange();
      if (this.client.me && this.client.me < id && this.client.participants.has(id)) this.offerTo([id]);
    };
    pc.ontrack = (e) => {
      p.received.addTrack(e.track);
      e.track.onmute = e.track.onunmute = e.track.onended = () => this.onChange();
      this.onChange();
    };
    return p;
  }

  // Puts this page's tracks on a peer's transceivers, by kind, where this participant may send.
  #attach(p) {
    for (const t of p.pc.getTransceivers()) {
      const kind = t.receiver.track.kind;
      if (!this.client.may(kind) || t.currentDirection === 'stopped') continue;
      const track = this.local[kind];
      if (t.sender.track !== track) t.sender.replaceTrack(track).catch((e) => console.warn('miccheck:', e));
    }
  }

  async #signal(from, data) {
    if (!this.client.joined) return;
    // Only an offer starts a connection: a late answer or candidate for one closed (after leaving) is dropped.
    if (!this.peers.has(from) && data.description?.type !== 'offer') return;
    const p = this.#peer(from);
    try {
      if (data.description) {
        await p.pc.setRemoteDescription(data.description);
        for (const c of p.pending.splice(0)) await p.pc.addIceCandidate(c);
        if (data.description.type === 'offer') {
          // The offer made the transceivers; send on them what this participant may send.
          for (const t of p.pc.getTransceivers()) t.direction = this.#direction(t.receiver.track.kind);
          this.#attach(p);
          await p.pc.setLocalDescription(await p.pc.createAnswer());
          this.#send(from, { description: this.#description(p.pc) });
        }
      } else if (data.candidate) {
        if (p.pc.remoteDescription) await p.pc.addIceCandidate(data.candidate);
        else p.pending.push(data.candidate);
      }
    } catch (error) {
      console.warn('miccheck: signalling with', from, 'failed:', error);
    }
  }

  #description(pc) { return { type: pc.localDescription.type, sdp: pc.localDescription.sdp }; }

  #send(to, data) { this.client.signal(to, data); }
}
