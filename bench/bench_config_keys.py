"""How much of the LSF configuration corpus xce enforces (no daemons).

Runs ``xce-migrate --check``'s migration on every configuration set of the
corpus (a directory holding LSF files; default ``../shared/
lsf-config-corpus`` beside the checkout, or the directory given as the
first argument) and prints:

  config_keys_occurrences count        key occurrences over all sets
  config_keys_enforced count           of them enforced
  config_keys_enforced_share %         the figure issue 13 aims at
  config_keys_accepted count           carried, not acted on yet
  config_keys_not_needed count         carried, meaningless in xce
  config_keys_not_carried count        left out, with a reason

and, on stderr, every key that is not enforced ranked by its number of
occurrences: that list says where enforcing pays most.
"""

import collections
import sys
from pathlib import Path

from _common import REPO, emit, note

from xce.config import keys
from xce.config.lsf import report
from xce.config.migrate import migrate

CORPUS = REPO.parent / "shared" / "lsf-config-corpus"


def config_sets(corpus):
    """Directories of *corpus* that hold LSF files, sorted."""
    return sorted({p.parent for p in Path(corpus).rglob("*")
                   if p.is_file() and p.name != "SOURCES.md"})


def _ranked_name(entry):
    """"queue NICE" for a key; the label's first words for other lines."""
    if entry.key:
        return entry.key
    words = entry.label.split(" = ")[0].split()
    return " ".join(words[:2]) if words else entry.label


def measure(corpus):
    """(counts per status, Counter of (status, key name)) over *corpus*."""
    entries = []
    for directory in config_sets(corpus):
        entries += migrate(str(directory), check=True).migration.entries
    ranked = collections.Counter((e.status, _ranked_name(e))
                                 for e in entries)
    return report.counts(entries), ranked


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    corpus = Path(args[0]) if args else CORPUS
    if not corpus.is_dir():
        note(f"no LSF configuration corpus at {corpus}")
        return 1
    found, ranked = measure(corpus)
    total = sum(found.values())
    emit("config_keys_occurrences", total, "count")
    emit("config_keys_enforced", found[keys.ENFORCED], "count")
    emit("config_keys_enforced_share",
         100.0 * found[keys.ENFORCED] / total if total else 100.0, "%")
    emit("config_keys_accepted", found[keys.ACCEPTED], "count")
    emit("config_keys_not_needed", found[keys.NOT_NEEDED], "count")
    emit("config_keys_not_carried", found[keys.NOT_CARRIED], "count")
    note(report.figure(found))
    for (status, name), count in sorted(
            ranked.items(), key=lambda item: (-item[1], item[0])):
        if status != keys.ENFORCED:
            note(f"{count:5d}  {status:<12} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
