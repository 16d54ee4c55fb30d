#ifndef MICCHECK_CPULSEAUDIO_H
#define MICCHECK_CPULSEAUDIO_H
// libpulse's asynchronous API (threaded main loop, context, streams, introspection).
// Not API of MicCheck: MicCheckPulse wraps it.
#include <pulse/pulseaudio.h>
#include <pulse/error.h>

// PA_VOLUME_NORM and PA_INVALID_INDEX are cast macros that Swift does not import.
static const pa_volume_t miccheck_pa_volume_norm = PA_VOLUME_NORM;
static const uint32_t miccheck_pa_invalid_index = PA_INVALID_INDEX;
#endif
