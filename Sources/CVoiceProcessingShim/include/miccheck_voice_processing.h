#ifndef MICCHECK_VOICE_PROCESSING_H
#define MICCHECK_VOICE_PROCESSING_H
// A C API over webrtc::AudioProcessing (webrtc-audio-processing 0.3), for MicCheckVoiceProcessing.
// Not API of MicCheck. Mono float audio in [-1, 1], 10 ms frames, one instance per near-end stream.
// An instance is not thread-safe: call it from one thread at a time.

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct miccheck_vp miccheck_vp;

typedef struct miccheck_vp_config {
    int sample_rate;        // 8000, 16000, 32000 or 48000
    bool echo_cancellation;
    int echo_suppression;   // 0 low, 1 moderate, 2 high
    bool noise_suppression;
    int noise_level;        // 0 low, 1 moderate, 2 high, 3 very high
    bool gain_control;
    int gain_mode;          // 0 adaptive analog, 1 adaptive digital, 2 fixed digital
    int gain_target_dbfs;   // 0...31: target peak level is -target dBFS
    int gain_compression_db;// 0...90
    bool high_pass_filter;
} miccheck_vp_config;

typedef struct miccheck_vp_metrics {
    bool has_echo_metrics;
    float erle_instant_db;      // echo return loss enhancement
    float erle_average_db;
    float erl_average_db;       // echo return loss
    bool has_delay;
    int delay_median_ms;
    int delay_std_ms;
    float fraction_poor_delays;
    bool stream_has_echo;
    float speech_probability;   // noise suppressor's prior, -1 if not running
} miccheck_vp_metrics;

// Returns NULL and sets *error (a webrtc error code, negative) on failure.
miccheck_vp *miccheck_vp_create(const miccheck_vp_config *config, int *error);
void miccheck_vp_destroy(miccheck_vp *vp);
// Samples per 10 ms frame at the configured rate.
int miccheck_vp_frame_length(const miccheck_vp *vp);
// One 10 ms frame of far-end (loudspeaker) audio. Returns 0 or a negative webrtc error code.
int miccheck_vp_analyze_far(miccheck_vp *vp, const float *far);
// One 10 ms frame of near-end (microphone) audio, processed in place. delay_ms: the time between
// the far-end frame's playout and its capture, as best known (0 when unknown: the library then
// estimates it). Returns 0, or a negative webrtc error code; -13 (a bad stream parameter warning)
// still processes the frame.
int miccheck_vp_process_near(miccheck_vp *vp, float *near, int delay_ms);
// For adaptive analog gain control: the capture device's level (0...255) before processing, and
// the level the controller asks for after it.
void miccheck_vp_set_analog_level(miccheck_vp *vp, int level);
int miccheck_vp_analog_level(miccheck_vp *vp);
void miccheck_vp_metrics_get(miccheck_vp *vp, miccheck_vp_metrics *metrics);

#ifdef __cplusplus
}
#endif
#endif
