"""LSF's mechanical line wrapping of long-format output (bjobs -l, bhist -l).

A logical line longer than 79 characters is cut mid-word; each continuation
holds the next 58 characters behind 21 spaces, so the text lines up after a
``Thu Mar 18 02:06:32: `` stamp.  Removing ``"\\n" + 21 spaces`` (as Toil
does) gives the logical line back exactly.
"""

WIDTH = 79
INDENT = 21
CONTINUATION = " " * INDENT


def wrap(line, width=WIDTH, indent=INDENT):
    """*line* cut into physical lines; a short line comes back unchanged."""
    if len(line) <= width:
        return line
    step = width - indent
    parts = [line[:width]]
    rest = line[width:]
    while rest:
        parts.append(" " * indent + rest[:step])
        rest = rest[step:]
    return "\n".join(parts)


def unwrap(text, indent=INDENT):
    """The inverse a parser applies: join continuations to their line."""
    return text.replace("\n" + " " * indent, "")
