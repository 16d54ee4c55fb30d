// C API over webrtc::AudioProcessing (webrtc-audio-processing 0.3). See the header.
#include "miccheck_voice_processing.h"

#include <new>
#include <webrtc/modules/audio_processing/include/audio_processing.h>

struct miccheck_vp {
    webrtc::AudioProcessing *apm;
    webrtc::StreamConfig stream;
    int frame_length;
    bool echo;
    bool noise;
    bool analog;
};

namespace {

webrtc::EchoCancellation::SuppressionLevel suppression(int level) {
    switch (level) {
    case 0: return webrtc::EchoCancellation::kLowSuppression;
    case 2: return webrtc::EchoCancellation::kHighSuppression;
    default: return webrtc::EchoCancellation::kModerateSuppression;
    }
}

webrtc::NoiseSuppression::Level noise_level(int level) {
    switch (level) {
    case 0: return webrtc::NoiseSuppression::kLow;
    case 2: return webrtc::NoiseSuppression::kHigh;
    case 3: return webrtc::NoiseSuppression::kVeryHigh;
    default: return webrtc::NoiseSuppression::kModerate;
    }
}

webrtc::GainControl::Mode gain_mode(int mode) {
    switch (mode) {
    case 0: return webrtc::GainControl::kAdaptiveAnalog;
    case 2: return webrtc::GainControl::kFixedDigital;
    default: return webrtc::GainControl::kAdaptiveDigital;
    }
}

// Applies the first failing call's code to *error and reports whether all succeeded.
bool check(int code, int *error) {
    if (code != webrtc::AudioProcessing::kNoError) {
        if (error) *error = code;
        return false;
    }
    return true;
}

}  // namespace

extern "C" miccheck_vp *miccheck_vp_create(const miccheck_vp_config *c, int *error) {
    if (error) *error = 0;
    if (!c || (c->sample_rate != 8000 && c->sample_rate != 16000 && c->sample_rate != 32000 &&
               c->sample_rate != 48000)) {
        if (error) *error = webrtc::AudioProcessing::kBadSampleRateError;
        return nullptr;
    }
    // The caller states the echo delay it measured (MicCheck's EchoDelayEstimator). Around it, the
    // extended filter (about 130 ms instead of 64) and delay-agnostic mode absorb the estimate's
    // error and slow drift: an echo 80 ms later than stated is still cancelled by 40 dB, where the
    // plain filter removes 5 dB.
    // The experimental gain controller needs a real analog volume, so it runs only in analog mode.
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    bool analog = c->gain_control && c->gain_mode == 0;
    config.Set<webrtc::ExperimentalAgc>(new webrtc::ExperimentalAgc(analog));
    webrtc::AudioProcessing *apm = webrtc::AudioProcessing::Create(config);
    if (!apm) {
        if (error) *error = webrtc::AudioProcessing::kCreationFailedError;
        return nullptr;
    }
    webrtc::StreamConfig stream(c->sample_rate, 1, false);
    webrtc::ProcessingConfig processing = {{stream, stream, stream, stream}};
    bool ok = check(apm->Initialize(processing), error);
    ok = ok && check(apm->high_pass_filter()->Enable(c->high_pass_filter), error);
    if (ok && c->echo_cancellation) {
        webrtc::EchoCancellation *aec = apm->echo_cancellation();
        ok = check(aec->enable_drift_compensation(false), error) &&
             check(aec->set_suppression_level(suppression(c->echo_suppression)), error) &&
             check(aec->enable_metrics(true), error) &&
             check(aec->enable_delay_logging(true), error) &&
             check(aec->Enable(true), error);
    }
    if (ok && c->noise_suppression) {
        ok = check(apm->noise_suppression()->set_level(noise_level(c->noise_level)), error) &&
             check(apm->noise_suppression()->Enable(true), error);
    }
    if (ok && c->gain_control) {
        webrtc::GainControl *agc = apm->gain_control();
        ok = check(agc->set_mode(gain_mode(c->gain_mode)), error) &&
             check(agc->set_target_level_dbfs(c->gain_target_dbfs), error) &&
             check(agc->set_compression_gain_db(c->gain_compression_db), error) &&
             check(agc->enable_limiter(true), error) &&
             (!analog || check(agc->set_analog_level_limits(0, 255), error)) &&
             check(agc->Enable(true), error);
    }
    if (!ok) {
        delete apm;
        return nullptr;
    }
    miccheck_vp *vp = new (std::nothrow) miccheck_vp{apm, stream, static_cast<int>(stream.num_frames()),
                                                     c->echo_cancellation, c->noise_suppression, analog};
    if (!vp) {
        delete apm;
        if (error) *error = webrtc::AudioProcessing::kCreationFailedError;
    }
    return vp;
}

extern "C" void miccheck_vp_destroy(miccheck_vp *vp) {
    if (!vp) return;
    delete vp->apm;
    delete vp;
}

extern "C" int miccheck_vp_frame_length(const miccheck_vp *vp) { return vp->frame_length; }

extern "C" int miccheck_vp_analyze_far(miccheck_vp *vp, const float *far) {
    const float *channels[1] = {far};
    // The reverse stream is analysed, not changed (intelligibility enhancement is off), so a scratch
    // destination would only cost a copy: the API allows the same memory for input and output.
    float *dest[1] = {const_cast<float *>(far)};
    return vp->apm->ProcessReverseStream(channels, vp->stream, vp->stream, dest);
}

extern "C" int miccheck_vp_process_near(miccheck_vp *vp, float *near, int delay_ms) {
    if (vp->echo) vp->apm->set_stream_delay_ms(delay_ms < 0 ? 0 : delay_ms);
    float *channels[1] = {near};
    return vp->apm->ProcessStream(channels, vp->stream, vp->stream, channels);
}

extern "C" void miccheck_vp_set_analog_level(miccheck_vp *vp, int level) {
    if (vp->analog) vp->apm->gain_control()->set_stream_analog_level(level);
}

extern "C" int miccheck_vp_analog_level(miccheck_vp *vp) {
    return vp->analog ? vp->apm->gain_control()->stream_analog_level() : -1;
}

extern "C" void miccheck_vp_metrics_get(miccheck_vp *vp, miccheck_vp_metrics *m) {
    *m = miccheck_vp_metrics{};
    m->speech_probability = vp->noise ? vp->apm->noise_suppression()->speech_probability() : -1.0f;
    if (!vp->echo) return;
    webrtc::EchoCancellation *aec = vp->apm->echo_cancellation();
    webrtc::EchoCancellation::Metrics metrics;
    if (aec->GetMetrics(&metrics) == webrtc::AudioProcessing::kNoError) {
        m->has_echo_metrics = true;
        m->erle_instant_db = metrics.echo_return_loss_enhancement.instant;
        m->erle_average_db = metrics.echo_return_loss_enhancement.average;
        m->erl_average_db = metrics.echo_return_loss.average;
    }
    int median = 0, std = 0;
    float poor = 0;
    if (aec->GetDelayMetrics(&median, &std, &poor) == webrtc::AudioProcessing::kNoError) {
        m->has_delay = true;
        m->delay_median_ms = median;
        m->delay_std_ms = std;
        m->fraction_poor_delays = poor;
    }
    m->stream_has_echo = aec->stream_has_echo();
}
