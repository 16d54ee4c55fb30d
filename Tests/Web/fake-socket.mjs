// The fake WebSocket the client tests share: what the client sends is kept; the test plays the server's side.
// `made` lists the sockets made since a test last emptied it (`FakeSocket.made = []`), a subclass's its own.
export class FakeSocket {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.bufferedAmount = 0;
    this.constructor.made.push(this);
  }
  send(data) { this.sent.push(data); }
  close(code = 1000) { this.serverCloses(code, ''); }
  // The server's side.
  accept() { this.readyState = 1; this.onopen(); }
  say(message) { this.onmessage({ data: JSON.stringify(message) }); }
  serverCloses(code, reason) { this.readyState = 3; this.onclose({ code, reason }); }
  texts() { return this.sent.filter((d) => typeof d === 'string').map((d) => JSON.parse(d)); }
}
