#ifndef MICCHECK_CPULSEAUDIO_H
#define MICCHECK_CPULSEAUDIO_H
// libpulse's asynchronous API (threaded main loop, context, streams, introspection).
// Not API of MicCheck: MicCheckPulse wraps it.
#include <pulse/pulseaudio.h>
#include <pulse/error.h>

// PA_INVALID_INDEX is a cast macro that Swift does not import.
static const uint32_t miccheck_pa_invalid_index = PA_INVALID_INDEX;
#endif
