"""Memory amounts and times as LSF prints them, for every command.

The store keeps memory in KB and times as epoch seconds; each LSF output
has its own way of printing them, gathered here so the ways stay apart
on purpose and are not written twice.
"""

import time

# -- memory (KB in, LSF's scaled text out) -----------------------------------
_SCALE = (("K", 1), ("M", 1024), ("G", 1024 ** 2), ("T", 1024 ** 3),
          ("P", 1024 ** 4), ("E", 1024 ** 5), ("Z", 1024 ** 6))
_UNIT_FACTOR = dict(_SCALE)


def _trim(number, decimals=1):
    """One decimal, but ``48`` rather than ``48.0`` as LSF prints."""
    text = f"{number:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def mem_bytes(kb):
    """``344 Mbytes``, ``2.5 Gbytes``, ``900 Kbytes``; "" when unknown."""
    if kb is None or kb <= 0:
        return ""
    kb = int(kb)
    if kb < 1024:
        return f"{kb} Kbytes"
    if kb < 1024 ** 2:
        return f"{kb // 1024} Mbytes"
    for letter, factor in reversed(_SCALE):
        if kb >= factor:
            return f"{_trim(kb / factor)} {letter}bytes"
    return f"{kb} Kbytes"


def mem_in_unit(kb, unit):
    """A memory amount in the unit a ``-o`` field asked for (``GB``, ``S``).

    LSF keeps two decimals with a unit letter (``0.01G``); ``S`` scales
    automatically and drops the ``bytes`` suffix.
    """
    if kb is None or kb <= 0:
        return ""
    letter = unit.upper()[:1]
    if letter == "S":
        text = mem_bytes(kb)
        return text.replace(" ", "").replace("bytes", "")
    return f"{kb / _UNIT_FACTOR[letter]:.2f}{letter}"


def in_limit_unit(kb, unit="KB"):
    """``   2048 M``: a configured memory limit in LSF_UNIT_FOR_LIMITS, the
    unit it was written in (lsf.conf(5): the unit of the display too);
    KB when the amount is not a whole number of that unit."""
    letter = str(unit or "KB").upper()[:1]
    factor = _UNIT_FACTOR.get(letter, 1)
    if int(kb) % factor:
        letter, factor = "K", 1
    return f"{int(kb) // factor:>6} {letter}"


def limit_amount(kb):
    """A memory limit as bjobs -l prints it: ``3.9 G``, ``100 M``."""
    for letter, factor in reversed(_SCALE):
        if kb >= factor:
            return f"{_trim(kb / factor)} {letter}"
    return f"{int(kb)} K"


def mem_compact(kb):
    """``5M``, ``222M``, ``3.2G``, ``900K`` as bacct prints memory."""
    kb = int(kb or 0)
    if kb < 1024:
        return f"{kb}K"
    if kb < 1024 ** 2:
        return f"{kb // 1024}M"
    return f"{kb / 1024 ** 2:.1f}G"


def host_memory(kb):
    """LSF 10.1 style: ``15.6G``, ``512M``; ``-`` when unknown."""
    if not kb:
        return "-"
    mb = kb / 1024
    if mb >= 1024:
        return f"{mb / 1024:.1f}G"
    return f"{mb:.0f}M"


def load_memory(mb):
    """A tmp, swp or mem load index (MB): as host_memory(), but a known zero
    (a host without swap) is ``0M``, not unknown."""
    return "0M" if mb == 0 else host_memory(mb * 1024)


def load_value(value, fmt):
    """A load index as bhosts -l and lsload print it: *fmt* applied to the
    number, free tmp, swap and memory as LSF 10.1 shows them (36G, 512M)
    when *fmt* is ``mem``, ``-`` when unknown, text left as it is."""
    if value is None:
        return "-"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    return load_memory(value) if fmt == "mem" else fmt.format(value)


# -- times -------------------------------------------------------------------
_minute_text = {}


def short_time(t):
    """``Oct 22 09:22``; a one-digit day is space-padded as LSF prints it."""
    if not t:
        return "-"
    minute = int(t // 60)
    text = _minute_text.get(minute)
    if text is None:        # many jobs share a minute: format it once
        tm = time.localtime(t)
        text = _minute_text[minute] = (
            f"{time.strftime('%b', tm)} {tm.tm_mday:>2} "
            f"{time.strftime('%H:%M', tm)}")
    return text


def long_time(t):
    """``Thu Mar 18 02:06:32``, the stamp of bjobs -l and history lines:
    ctime()'s, as LSF prints it, the day padded with a space
    (``Wed May  1 22:42:23``)."""
    return time.ctime(t)[:19]


def hms(seconds):
    """``00:00:01`` (hours grow past 99 rather than wrap)."""
    s = int(seconds or 0)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def wide_time(t):
    """``11/29-22:16:14``; ``-`` when unset."""
    if not t:
        return "-"
    tm = time.localtime(t)
    return (f"{tm.tm_mon:02d}/{tm.tm_mday:02d}-{tm.tm_hour:02d}:"
            f"{tm.tm_min:02d}:{tm.tm_sec:02d}")


def cpu_text(seconds):
    """``000:00:01.25``: hours, minutes, seconds and hundredths."""
    seconds = float(seconds or 0)
    whole = int(seconds)
    return (f"{whole // 3600:03d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
            f".{int(round((seconds - whole) * 100)) % 100:02d}")
