#define PROBECC_VERSION "beadaa5-dirty"
