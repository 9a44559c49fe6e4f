#!/usr/bin/env python3
"""tests/cuda/patch_cubin.py IN OUT KERNEL — copies the cubin IN to OUT with
the first instruction word of .text.KERNEL given opcode 0x1ff, which no
Ampere instruction has: the SASS front end must refuse it by kernel, address
and word (driver_cubin_refused)."""
import struct, sys

src, dst, kernel = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', data, 40)
shnum, shstrndx = struct.unpack_from('<HH', data, 60)
secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + 64 * i) for i in range(shnum)]
names = bytes(data[secs[shstrndx][4]:])
for s in secs:
    if names[s[0]:].split(b'\0')[0] == b'.text.' + kernel.encode():
        data[s[4]] = 0xff
        data[s[4] + 1] |= 1
        break
else:
    sys.exit('%s: no .text.%s' % (src, kernel))
open(dst, 'wb').write(bytes(data))
