"""LSF's table cells.

LSF builds its tables from fixed-width cells, each followed by one blank
(volclava ``prtWord``/``prtValue``/``prtDash``); these helpers do the same so
every table lines up with the real commands'.
"""


def cell(text, width):
    """Left-justified and cut to *width* (``prtWord(len, w, 0)``)."""
    return f"{text:<{width}.{width}} "


def lcell(text, width):
    """Left-justified, never cut (``prtWordL``: wide output)."""
    return f"{text:<{width}} "


def rcell(text, width):
    """Right-justified header cell, cut to *width*."""
    return f"{text:>{width}.{width}} "


def num(value, width):
    """A limit: the number, or ``-`` when unlimited (``prtValue``/``prtDash``)."""
    return f"{'-' if value is None else value:>{width}} "


def cut_front(name, width):
    """Long names lose their front and gain a ``*`` (LSF 10.1's default view)."""
    if len(name) <= width:
        return name
    return "*" + name[-(width - 1):]


def line(*cells):
    """Join cells; LSF's trailing blank is dropped so lines end cleanly."""
    return "".join(cells).rstrip()
