// The system zlib, for its fast CRC-32 (ZIPFoundation's on Linux is a byte-at-a-time loop).
#include <zlib.h>
