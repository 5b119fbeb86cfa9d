"""The last step of a migration: the written xce.yaml must load.

The converters leave out the values they know xce cannot take, but the
loader is the judge of what the controller refuses.  ``settle`` loads the
rendered file the way the controller will; every value it refuses (an
error naming a line and key) is taken back out of the tree and reported as
not carried, with the loader's reason, and the file is rendered again.  A
refusal that names no line of a value cannot be taken out: the migration
stops with it, so that nothing is written that would not start.
"""

import os
import re
import tempfile

from ruamel.yaml import YAML

from xce.config import load

# "<path>:<line>: <key>: <message>" as the loader's checker writes them.
_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>[0-9]+): (?P<key>[^:]+): "
                    r"(?P<message>.*)$")
_ROUNDS = 50


class Unsettled(Exception):
    """The rendered configuration is refused in a way no value explains."""


def settle(mig, render):
    """Drop from *mig* what the loader refuses; returns the final text.

    *render* turns the migration into xce.yaml text."""
    for _ in range(_ROUNDS):
        text = render()
        errors = _refusals(text)
        if not errors:
            return text
        tree = YAML(typ="rt").load(text)
        progress = False
        for error in errors:
            found = _ERROR.match(error)
            path = found and _path_at(tree, int(found["line"]), found["key"])
            if not path:
                raise Unsettled(error)
            if _present(mig.tree, path):
                # One "not carried" line, labelled as the file wrote it.
                mig.retract(path, found["message"])
                progress = True
        if not progress:
            raise Unsettled(errors[0])
    raise Unsettled("the configuration did not settle")


def _refusals(text):
    with tempfile.TemporaryDirectory(prefix="xce-migrate-") as envdir:
        with open(os.path.join(envdir, load.CONFIG_FILE), "w",
                  encoding="utf-8") as f:
            f.write(text)
        try:
            load.load(envdir)
        except load.ConfigError as e:
            return list(e.errors)
    return []


def _path_at(node, line, key, path=()):
    """The path of the mapping key *key* written on *line* (1-based)."""
    if isinstance(node, dict):
        for name, value in node.items():
            try:
                at = node.lc.key(name)[0] + 1
            except (AttributeError, KeyError, TypeError):
                at = None
            if at == line and str(name) == key:
                return path + (name,)
            found = _path_at(value, line, key, path + (name,))
            if found:
                return found
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found = _path_at(value, line, key, path + (index,))
            if found:
                return found
    return None


def _present(tree, path):
    here = tree
    for step in path:
        try:
            here = here[step]
        except (KeyError, IndexError, TypeError):
            return False
    return True
