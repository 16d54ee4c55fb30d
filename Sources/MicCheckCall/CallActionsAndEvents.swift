public import MicCheck

/// What the user asks of the lobby or the call, whatever the screen (a key, a button, a browser message).
public enum CallAction: Sendable, Hashable {
    /// Turn a control (microphone, camera, speaker) on or off.
    case toggle(CallControl)
    /// Join the call from the lobby.
    case join
    /// Close the lobby, or leave the call.
    case close
    /// "Don't show again for this call" on "You are muted."
    case silenceMutedNotice
    /// The permissions prompt's "Open Settings": show the steps that grant access.
    case openSettings
    /// The permissions prompt's "Dismiss", remembered for the call.
    case dismissPrompt
    /// Yes to "A new microphone is available": switch to it.
    case switchMicrophone
    /// No to "A new microphone is available".
    case ignoreMicrophoneOffer
    /// "Test your microphone": record a few seconds in the lobby and hear them back.
    case testMicrophone
    /// Push-to-talk on or off, in the call.
    case pushToTalk
    /// In push-to-talk, a press of the talk key where key releases cannot be seen (a terminal): the
    /// microphone opens for one utterance (``CallSession/talkWindow``).
    case talk
}

/// Something that happened in a session, for the app to act on (persist a dismissal) or log.
public enum SessionEvent: Sendable, Hashable {
    /// A control was turned on or off (`on`: its new state).
    case toggled(CallControl, on: Bool)
    /// The call does not allow turning this on.
    case toggleRefused(CallControl)
    /// The user joined the call from the lobby, with these settings.
    case joined(CallSettings)
    /// The user closed the lobby without joining.
    case closed
    /// The user left the call.
    case left
    /// "You are muted." appeared.
    case mutedNoticeShown
    /// "You are muted." went.
    case mutedNoticeHidden
    /// The user chose "Don't show again for this call" on "You are muted."
    case mutedNoticeSilenced
    /// The permissions prompt of this kind appeared.
    case promptShown(PermissionPrompt.Kind)
    /// The user dismissed the permissions prompt of this kind: the app keeps the dismissal for the call.
    case promptDismissed(PermissionPrompt.Kind)
    /// The user chose "Open Settings": the steps that grant access show.
    case settingsStepsShown
    /// A microphone warning (noisy, clipping, too quiet, wrong source) appeared in the lobby's check, or went.
    case microphoneWarningShown(MicrophoneWarning.Kind)
    /// A microphone warning of the lobby's check went.
    case microphoneWarningCleared(MicrophoneWarning.Kind)
    /// A new microphone is offered in the lobby.
    case microphoneOffered(MicrophoneDevice)
    /// The offer went: ignored by the user, unanswered in time, or the microphone went away again.
    case microphoneOfferIgnored(MicrophoneDevice)
    /// The offer went unanswered in time (`MicrophoneChoice.Configuration.offerTimeout`).
    case microphoneOfferExpired(MicrophoneDevice)
    /// The offered microphone went away again, and its offer with it.
    case microphoneOfferWithdrawn(MicrophoneDevice)
    /// The user chose the offered microphone: the app switches to it and reports ``CallSession/microphoneSwitched(to:at:)``.
    case microphoneSwitchRequested(MicrophoneDevice)
    /// The switch took effect: this microphone is in use.
    case microphoneSwitched(MicrophoneDevice)
    /// The microphone in use went away; the default took its place.
    case microphoneDisconnected(lost: MicrophoneDevice, fallback: MicrophoneDevice)
    /// The microphone test started recording, for this many seconds: the app records.
    case microphoneTestStarted(seconds: Double)
    /// A test was asked for while the microphone is off.
    case microphoneTestRefused
    /// The test's recording was judged; `playsBack`: the app plays it back now.
    case microphoneTestRecorded(MicrophoneTestVerdict, playsBack: Bool)
    /// The playback is over.
    case microphoneTestPlayedBack
    /// The user joined or closed the lobby mid-test: the app stops recording or playing, and discards.
    case microphoneTestCancelled
    /// Push-to-talk turned on or off.
    case pushToTalkChanged(on: Bool)
    /// In push-to-talk, the microphone opened for the user to talk, or closed again.
    case talking(Bool)
    /// A host muted the user (the host's name).
    case mutedByHost(String)
    /// "Your typing can be heard." appeared or went.
    case typingNoticeShown
    /// "Your typing can be heard." went.
    case typingNoticeHidden

    /// The event's name in the JSON Lines log.
    public var name: String {
        switch self {
        case .toggled: "toggled"
        case .toggleRefused: "toggle_refused"
        case .joined: "joined"
        case .closed: "closed"
        case .left: "left"
        case .mutedNoticeShown: "muted_notice_shown"
        case .mutedNoticeHidden: "muted_notice_hidden"
        case .mutedNoticeSilenced: "muted_notice_silenced"
        case .promptShown: "permission_prompt_shown"
        case .promptDismissed: "permission_prompt_dismissed"
        case .settingsStepsShown: "settings_steps_shown"
        case .microphoneWarningShown: "microphone_warning_shown"
        case .microphoneWarningCleared: "microphone_warning_cleared"
        case .microphoneOffered: "microphone_offered"
        case .microphoneOfferIgnored: "microphone_offer_ignored"
        case .microphoneOfferExpired: "microphone_offer_expired"
        case .microphoneOfferWithdrawn: "microphone_offer_withdrawn"
        case .microphoneSwitchRequested: "microphone_switch_requested"
        case .microphoneSwitched: "microphone_switched"
        case .microphoneDisconnected: "microphone_disconnected"
        case .microphoneTestStarted: "microphone_test_started"
        case .microphoneTestRefused: "microphone_test_refused"
        case .microphoneTestRecorded: "microphone_test_recorded"
        case .microphoneTestPlayedBack: "microphone_test_played_back"
        case .microphoneTestCancelled: "microphone_test_cancelled"
        case .pushToTalkChanged: "push_to_talk"
        case .talking(let on): on ? "talk_started" : "talk_ended"
        case .mutedByHost: "muted_by_host"
        case .typingNoticeShown: "typing_notice_shown"
        case .typingNoticeHidden: "typing_notice_hidden"
        }
    }
}
