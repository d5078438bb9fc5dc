#!/usr/bin/env python3
"""What a fresh page of anonymous memory costs on this machine: maps N
bytes, writes one byte per page, unmaps, REPEAT times; prints the time
and the time per page. On a VM a page touched for the first time may
also fault in the hypervisor (docs/performance.md, "Session 11
(linearity)").

    scripts/page-touch.py 100000000 1    # 95 MiB at once
    scripts/page-touch.py 10000000 10    # 9 MiB, ten times
"""
import mmap
import sys
import time

size, repeat = int(sys.argv[1]), int(sys.argv[2])
start = time.perf_counter()
for _ in range(repeat):
    m = mmap.mmap(-1, size)
    for offset in range(0, size, 4096):
        m[offset] = 1
    m.close()
elapsed = time.perf_counter() - start
pages = size * repeat / 4096
print(f"{size >> 20} MiB x{repeat}: {elapsed * 1e3:.1f} ms, {elapsed / pages * 1e9:.0f} ns/page")
