"""The service's own memory: how much it holds, and giving back what it freed."""

from __future__ import annotations


def rss_mb() -> float:
    """Resident memory now (Linux), else the peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def release_memory() -> None:
    """Hand the warm-up's freed heap back to the system (glibc keeps it otherwise): the service
    lives long, and embedding thousands of memories peaks far above what answering needs."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to trim
        pass
