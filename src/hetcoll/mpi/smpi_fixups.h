// Included after SimGrid's smpi_helpers.h in the SMPI build (smpicxx puts
// that header first on every command line). It turns `exit(x)` into
// `smpi_exit(x)` with a function-like macro, which also rewrites member
// calls such as CLI11's `app.exit(error)`; hetcoll never calls exit(), so
// the macro is removed. sleep/usleep/nanosleep stay simulated.
#pragma once
#ifdef exit
#undef exit
#endif
