"""bsub -G: the user group a job is associated with, or the groups it
is excluded from ("~group ~group ..."; LSF 10.1.0.8).  Pure and
import-free: bsub and the controller read the option the same way."""


class BadGroupOption(ValueError):
    """*key*: the xce.errors message; str(): the word it is about."""

    def __init__(self, key, word):
        super().__init__(word)
        self.key = key


def parse(value):
    """(group, excluded) of a -G value: a group name and (), or None and
    the tuple of names given with a tilde.  Refused (BadGroupOption):
    both forms at once, several groups without tildes, a tilde alone."""
    words = str(value).split()
    tilded = [w for w in words if w.startswith("~")]
    if not tilded:
        if len(words) > 1:
            raise BadGroupOption("BAD_UGROUP", str(value).strip())
        return (words[0] if words else None), ()
    if len(tilded) != len(words):
        raise BadGroupOption("UGROUP_MIXED", " ".join(words))
    for word in tilded:
        if len(word) == 1 or "~" in word[1:]:
            raise BadGroupOption("BAD_UGROUP", word)
    return None, tuple(dict.fromkeys(w[1:] for w in tilded))


def tilded(excluded):
    """Excluded groups as -G gives them: each with its tilde."""
    return " ".join("~" + str(name) for name in excluded)


def shown(spec):
    """The -G value as given, for bjobs -l (User Group <...>): the
    group, or the excluded groups each with its tilde; "" for none."""
    excluded = spec.get("user_group_exclude")
    if excluded:
        return tilded(excluded)
    return spec.get("user_group") or ""


def names_user(members, user):
    """Whether a user group's member list *members* holds *user*: names
    the user, or holds `all` without excluding the user (~user).  Which
    list is given decides what it means: lsb.users GROUP_MEMBER as
    written (direct members, bsub -G) or expanded (any depth, limits)."""
    return user in members or ("all" in members and
                               "~" + user not in members)
