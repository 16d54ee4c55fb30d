// The SDK's declarations (Web/sdk/types, written from its JSDoc by scripts/sdk-types.sh) used as an app would,
// through the package's names, checked by TypeScript (Debian's node-typescript):
//   tsc -p Tests/Web/tsconfig.json
// The `@ts-expect-error` lines are mistakes the declarations must refuse: were a type to decay to `any`, tsc
// would fail on the unused expectation.
import {
  createViewFactory, MicCheckClient, MicCheckError, RemoteSpeaking, stateSpeaking, type LobbyElement, type MeterElement, type MicrophoneTestElement,
  type MicrophoneTestVerdict, type MutedNoticeElement, type CallControlsElement, type CallGridElement,
  type TypingNoticeElement,
} from '@miccheck/web';
import { MicCheckClient as ClientOnly } from '@miccheck/web/client';
import { ViewFactory, type PromptKind } from '@miccheck/web/components';
import type { Participant } from '@miccheck/web/client';

export async function embed(stream: MediaStream): Promise<void> {
  const client = new MicCheckClient({ server: 'https://miccheck.example', call: 'standup', stream });
  const factory = createViewFactory({ makeVideoParticipantView: () => document.createElement('my-tile') });
  const lobby = factory.makeLobbyView() as LobbyElement;
  const meter = factory.makeMeterView() as MeterElement;
  const notice = factory.makeMutedNoticeView() as MutedNoticeElement;
  client.addEventListener('microphone', (e) => { meter.state = e.detail; lobby.microphone = e.detail; });
  client.addEventListener('mutednotice', (e) => (e.detail.show ? notice.show(e.detail) : notice.hide()));
  client.addEventListener('presence', (e) => { lobby.state = { others: e.detail.participants }; });
  client.addEventListener('connection', (e) => {
    if (e.detail.state === 'refused') lobby.state = { status: e.detail.message, joinDisabled: true };
  });
  notice.addEventListener('miccheck-unmute', () => client.unmute());
  client.setMuted(true, 'push-to-talk');
  try {
    await client.start();
  } catch (error) {
    if (error instanceof MicCheckError && error.code === 'no-audio-track') lobby.state = { deviceNote: error.message };
  }
  client.join('Ada');
}

// "Test your microphone" in an app's own lobby: the button's event starts it, each step goes to the view, and
// the verdict comes back once it has played through the chosen speaker.
export function microphoneTest(client: MicCheckClient, speaker: string): void {
  const factory = createViewFactory({});
  const view = factory.makeMicrophoneTestView() as MicrophoneTestElement;
  client.addEventListener('microphonetest', (e) => {
    view.state = e.detail;
    if (e.detail.state === 'recording') document.title = `${e.detail.secondsLeft} s left`;
    if (e.detail.state === 'cancelled' || e.detail.state === 'failed') console.log(e.detail.message);
  });
  view.available = !client.muted;
  view.addEventListener('miccheck-test-microphone', async () => {
    try {
      const result: MicrophoneTestVerdict = await client.testMicrophone({ seconds: 5, sinkId: speaker });
      if (result.verdict !== 'clear' && result.speechLevelDb !== null) console.log(result.sentence, result.playedBack);
    } catch (error) {
      if (error instanceof MicCheckError && error.code === 'muted') view.available = false;
    }
  });
  if (view.busy) client.cancelMicrophoneTest();
}

// A host's call: Mute on the others' tiles, push-to-talk in the toolbar, the typing notice, a host's mute.
export function moderated(client: MicCheckClient, grid: CallGridElement, controls: CallControlsElement,
  typing: TypingNoticeElement, notice: MutedNoticeElement): void {
  client.addEventListener('presence', (e) => {
    grid.update(e.detail.participants, { me: e.detail.me, mayMute: client.may('mute-users') });
  });
  grid.addEventListener('miccheck-mute-participant', (e) => {
    try {
      client.muteParticipant((e as CustomEvent<{ id: string }>).detail.id);
    } catch (error) {
      if (error instanceof MicCheckError && error.code === 'not-allowed') console.warn(error.message);
    }
  });
  client.addEventListener('error', (e) => console.warn(e.detail.message));
  client.addEventListener('mutedbyhost', (e) => console.info(e.detail.text, e.detail.by.name));
  client.addEventListener('mutednotice', (e) => {
    if (e.detail.show) notice.show({ ...e.detail, announcement: e.detail.announcement ?? null });
  });
  client.addEventListener('typingnotice', (e) => (e.detail.show ? typing.show(e.detail) : typing.hide()));
  typing.addEventListener('miccheck-mute', () => client.setMuted(true));
  controls.state = { audio: true, video: false, speaker: true, allowed: { audio: true, video: true },
    pushToTalk: true, talking: false };
  client.setMuted(true, 'push-to-talk');
}

// A long call whose invitations are short: the app's own server gives a new token at each connection (the
// server closes a connection when its token expires, and the client reconnects with a fresh one).
export function renewed(stream: MediaStream, invitation: () => Promise<string>): MicCheckClient {
  const client = new MicCheckClient({ server: 'https://miccheck.example', call: 'standup', stream,
    token: async () => invitation() });
  new MicCheckClient({ call: 'standup', token: () => 'a fixed token' }).close();
  return client;
}

// No MicCheck server: a static page's own analysis (the app's call runs on its own media server).
export async function noServer(stream: MediaStream, meter: MeterElement): Promise<string | null> {
  const client = new MicCheckClient({ endpoint: 'none', stream });
  client.addEventListener('microphone', (e) => { meter.state = e.detail; });
  try {
    await client.start();
  } catch (error) {
    if (error instanceof MicCheckError && error.code === 'no-analysis') return error.message;
  }
  const server: URL | null = client.server;
  client.join('Ada');
  return server === null ? null : server.href;
}

// On another SFU: the page's speaking out through the app's data channel, the others' in, a ring on each tile.
export function onAnotherSfu(client: MicCheckClient, channel: RTCDataChannel, tiles: Map<string, HTMLElement>): () => void {
  const stop = stateSpeaking(client, (text) => channel.send(text), { restateMs: 1000 });
  const others = new RemoteSpeaking((id, speaking) => tiles.get(id)?.classList.toggle('speaking', speaking));
  channel.addEventListener('message', (e: MessageEvent) => { others.heard('peer', e.data); });
  return () => { stop(); others.close(); };
}

// The components by tag name, as a page that wrote them in its HTML finds them.
export function byTagName(client: ClientOnly): void {
  const meter = document.querySelector('miccheck-meter');
  const notice = document.querySelector('miccheck-muted-notice');
  client.addEventListener('microphone', (e) => { if (meter) meter.state = e.detail; });
  client.addEventListener('mutednotice', (e) => (e.detail.show ? notice?.show(e.detail) : notice?.hide()));
  const lobby: LobbyElement = document.createElement('miccheck-lobby');
  lobby.state = { joinDisabled: true };
  // @ts-expect-error: a meter's state is a microphone check, not a number
  if (meter) meter.state = 0.5;
}

// The factory's views are the elements they make: no cast.
export function fromTheFactory(factory: ViewFactory, kind: PromptKind): string {
  const lobby = factory.makeLobbyView();
  lobby.state = { status: 'Reconnecting in 2 s…' };
  lobby.focusName();
  factory.makePermissionsPromptView().show(kind);
  // @ts-expect-error: not a kind of prompt
  factory.makePermissionsPromptView().show('speaker');
  // @ts-expect-error: createViewFactory refuses a name that is not a factory method
  createViewFactory({ makeSomethingElse: () => document.createElement('div') });
  return lobby.name;
}

// A microphone the browser cannot open: the permission event says which, and the browser's sentence.
export function permission(client: ClientOnly): void {
  client.addEventListener('permission', (e) => {
    const state: 'denied' | 'missing' | 'unavailable' = e.detail.microphone;
    if (state === 'unavailable') console.warn(e.detail.message);
  });
  // @ts-expect-error: the event's detail has no such field
  client.addEventListener('speaking', (e) => console.log(e.detail.level));
  // @ts-expect-error: not a cause of a mute
  client.setMuted(true, 'loud');
  // @ts-expect-error: the client's state is for reading
  client.muted = true;
  client.addEventListener('some-app-event', (e: Event) => console.log(e.type));
}

// An app's own tile through a factory of its own, as the factory's comment shows: any element, its own shape.
class AppTile extends HTMLElement {
  participant?: Participant;
  showSpeaking = true;
}
export class AppFactory extends ViewFactory {
  override makeVideoParticipantView(): AppTile { return new AppTile(); }
}
export function appFactory(): HTMLElement {
  const factory = new AppFactory();
  const lobby = factory.makeLobbyView();
  lobby.focusName();
  return factory.makeVideoParticipantView();
}
