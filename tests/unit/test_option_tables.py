"""Every LSF command's option table, walked: each option of LSF 10.1 is
either implemented (it parses, into its destination) or refused in one
line naming it, exit 255, before anything is done; a word that is no LSF
option is LSF's "illegal option" with the usage.  Values LSF refuses are
refused with LSF's words.  bmod carries LSF's -Xn cancel forms."""

import configparser
import importlib
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from xce.cli import bmod, bsub
from xce.cli.lsfargs import Commands, EmptyValue, Opt, Parser, UsageError
from xce.client.modify import modify_spec
from xce.client.submit import options as sub

REPO = Path(__file__).resolve().parents[2]
# xce's own tools: click's, not LSF's.
OWN_TOOLS = {"xce", "xce-migrate", "xce-controller", "xce-agent"}


def _lsf_modules():
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg")
    text = cfg["options.entry_points"]["console_scripts"]
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {name.strip(): importlib.import_module(
        target.strip().split(":")[0])
        for name, target in pairs if name.strip() not in OWN_TOOLS}


MODULES = _lsf_modules()


def _tables():
    """(label, module, subcommand or None, Parser) of every LSF command."""
    out = []
    for name, module in sorted(MODULES.items()):
        if isinstance(getattr(module, "COMMANDS", None), Commands):
            for sub_name, (parser, _) in sorted(
                    module.COMMANDS.commands.items()):
                out.append((f"{name} {sub_name}", module, sub_name, parser))
        else:
            out.append((name, module, None, module.PARSER))
    return out


TABLES = _tables()
IMPLEMENTED = [(label, module, sub_name, parser, opt, flag)
               for label, module, sub_name, parser in TABLES
               for opt in parser.opts for flag in opt.flags]
REFUSED = [(label, module, sub_name, parser, flag)
           for label, module, sub_name, parser in TABLES
           for flag in sorted(parser.refused)]


def _ids(cases):
    return [f"{c[0]} {c[-1]}" for c in cases]


def test_every_lsf_command_has_a_table_and_no_click_command():
    assert len(MODULES) >= 31
    for name, module in MODULES.items():
        assert isinstance(getattr(module, "PARSER", None), Parser) or \
            isinstance(getattr(module, "COMMANDS", None), Commands), name
        assert not hasattr(module, "cli"), name


def test_tables_are_well_formed():
    for label, _, _, parser in TABLES:
        flags = [f for o in parser.opts for f in o.flags]
        assert len(flags) == len(set(flags)), label
        assert all(f.startswith("-") and len(f) > 1 for f in flags), label
        assert all(f.startswith("-") and len(f) > 1
                   for f in parser.refused), label
        assert not set(flags) & parser.refused, label
        for first, second in parser.conflicts:
            assert {first, second} <= parser.flags(), (label, first, second)


def _complete(parser, argv):
    """ARGV with what the table needs after the options."""
    if parser.stop_at_first_arg:
        return argv + ["true"]
    return argv + ["1"] * parser.nargs[0]


@pytest.mark.parametrize("label, module, sub_name, parser, opt, flag",
                         IMPLEMENTED, ids=_ids(IMPLEMENTED))
def test_every_implemented_option_parses_into_its_destination(
        label, module, sub_name, parser, opt, flag):
    if opt.takes:
        value = opt.sample or "1"
        values, _ = parser.parse(_complete(parser, [flag, value]))
        wanted = opt.type(value)
        assert values[opt.dest] == ((wanted,) if opt.multiple else wanted)
    else:
        values, _ = parser.parse(_complete(parser, [flag]))
        assert values[opt.dest] == opt.const


def _main(module, argv):
    """(exit code, stdout, stderr) of the command's main(argv), in process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), \
            pytest.raises(SystemExit) as exit_:
        module.main(argv)
    return exit_.value.code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("label, module, sub_name, parser, flag", REFUSED,
                         ids=_ids(REFUSED))
def test_every_other_lsf_option_is_refused_in_one_line_doing_nothing(
        label, module, sub_name, parser, flag, monkeypatch):
    # Nothing may be done: no state opened, no request written.
    monkeypatch.setenv("XCE_ENVDIR", "/nonexistent")
    argv = ([sub_name] if sub_name else []) + \
        _complete(parser, [flag, "x"])
    code, out, err = _main(module, argv)
    assert (code, out) == (255, "")
    why = parser.reasons.get(flag)
    assert err == f"{parser.prog}: option {flag} is not supported by xce" + \
        (f": {why}" if why else "") + "\n"


@pytest.mark.parametrize("label, module, sub_name, parser",
                         [t for t in TABLES], ids=[t[0] for t in TABLES])
def test_a_word_that_is_no_lsf_option_is_illegal_with_the_usage(
        label, module, sub_name, parser):
    argv = ([sub_name] if sub_name else []) + ["-Y9"]
    code, out, err = _main(module, argv)
    assert (code, out) == (255, "")
    first, usage = err.splitlines()
    assert first == f"{parser.prog}: illegal option -- Y9"
    assert usage.startswith("Usage: ")


def test_no_word_is_split_into_letters_but_by_bjobs():
    bundling = [label for label, _, _, parser in TABLES if parser.bundle]
    assert bundling == ["bjobs"]
    # bsub: a value glued to an option is no option (LSF documents none).
    for argv in (["-Jname"], ["-oo/x"], ["-n4"], ["-qshort"]):
        with pytest.raises(UsageError, match="illegal option"):
            bsub.PARSER.parse(argv + ["echo", "hi"])
    # The words of the issue are options whole, taken or refused, never
    # read as -o utdir, -J d, -e xt or -g pu.
    for flag in ("-outdir", "-Jd", "-ext", "-gpu"):
        try:
            values, args = bsub.PARSER.parse([flag, "v", "echo", "hi"])
        except UsageError as e:
            assert f"option {flag} is not supported" in str(e)
        else:
            assert args == ["echo", "hi"]
            assert bsub.PARSER.by_flag[flag].flags[0] == flag


# -- bmod and its cancel forms --------------------------------------------------
# LSF 10.1's bmod options that have an -Xn form.
BMOD_CANCELS = ("-app", "-aps", "-b", "-B", "-C", "-c", "-clusters", "-cwd",
                "-D", "-data", "-datagrp", "-E", "-Ep", "-e", "-eptl", "-F",
                "-f", "-freq", "-G", "-g", "-gpu", "-hostfile", "-i", "-is",
                "-J", "-Jd", "-k", "-L", "-M", "-m", "-mig", "-N", "-n",
                "-network", "-notify", "-o", "-outdir", "-P", "-p", "-ptl",
                "-Q", "-q", "-R", "-rnc", "-S", "-s", "-sla", "-smt", "-sp",
                "-stage", "-T", "-t", "-ti", "-U", "-u", "-v", "-W", "-We",
                "-w", "-wa", "-wt", "-Zs")


def test_bmod_table_has_every_cancel_form_and_implements_them_in_pairs():
    flags = bmod.PARSER.flags()
    assert [f for f in BMOD_CANCELS if f + "n" not in flags] == []
    taken = set(bmod.PARSER.by_flag)
    half = [f for f in BMOD_CANCELS if f in taken and f + "n" not in taken]
    assert half == [], "implemented without its cancel form"


def test_bmod_setting_and_removing_together_is_a_usage_error():
    with pytest.raises(UsageError, match=r"^bmod: -W and -Wn cannot be used"):
        bmod.PARSER.parse(["-W", "5", "-Wn", "1"])


# -- bad values: LSF's words, nothing submitted ------------------------------
class _Site:
    """What building a spec reads of a site: settings, all unset."""

    def setting(self, key, default=None):
        return default


BIG = "1234567890" * 4
# option, a value LSF refuses, bsub's message (bmod adds ". Job not
# modified.", bsub ". Job not submitted."; both exit 255 and send nothing,
# as tests/cli/test_command_bounds.py shows through the real commands).
BAD_SUBMIT_VALUES = [
    ("-W", "abc", "abc: Bad RUNLIMIT specification"),
    ("-W", "1:75", "1:75: Bad RUNLIMIT specification"),
    ("-W", "0", "0: RUNLIMIT value should be a positive integer"),
    ("-W", BIG, f"{BIG}: RUNLIMIT value is too big"),
    ("-M", "12XB", "12XB: MEMLIMIT value should be a positive integer"),
    ("-M", "0", "0: MEMLIMIT value should be a positive integer"),
    ("-n", "0", "The number of processors must be a positive integer"),
    ("-n", "4,2", "Bad argument for option -n"),
    ("-n", "x", "Bad argument for option -n"),
    ("-sp", "0", "0: Illegal job priority"),
    ("-sp", "\uff13", "\uff13: Illegal job priority"),
    ("-J", "a[b", "Bad job name"),
    ("-J", "", "Bad job name"),
    ("-R", "select[", None),
    ("-m", "", None),
]
# None: one line, in the words of the module that checks it (its own
# end-to-end tests hold the wording).
BSUB_ONLY = [
    ("-env", ",", ",: Bad argument"),
    ("-b", "x", "x: Bad time specification"),
    ("-b", "25:00", "25:00: Bad time specification"),
    ("-t", "x", "x: Bad time specification"),
    ("-We", "x", None), ("-hostfile", "/nonexistent/h", None),
    ("-nnodes", "0", None), ("-Q", "EXCLUDE(", None), ("-u", "", None),
    ("-L", "", None), ("-E", "", None), ("-Ep", "", None),
    # per-process limits
    ("-c", "x", None), ("-v", "x", None), ("-S", "x", None),
    ("-F", "x", None), ("-D", "x", None), ("-C", "x", None),
    ("-p", "x", None), ("-T", "x", None),
    ("-gpu", "num=0", "Bad GPU requirement syntax: num=0: expected 1 to "
     "1024, optionally /host or /task"),
]
# Values the controller checks against the configuration, or files read
# when the request is built, each shown through the real commands.
CHECKED_ELSEWHERE = {
    "-q": "tests/cli/test_bsub_options.py::"
          "test_bad_input_is_refused_with_lsf_messages",
    "-w": "tests/cli/test_bsub_depend_errors.py",
    **{flag: "tests/cli/test_bjobs_options.py::"
              "test_bsub_refuses_unknown_profiles_and_groups"
       for flag in ("-G", "-g", "-app")},
    "-pack": "tests/cli/test_bsub_pack.py",
    "-a": "tests/cli/test_esub.py::"
          "test_a_name_picks_esub_name_and_epsub_sees_the_job_id",
    "-f": "tests/cli/test_stage_files_local.py::"
          "test_bad_arguments_are_refused_before_anything_is_sent",
}
# Any word is a value LSF takes: files, directories, commands, texts.
ANY_VALUE = {"-o", "-oo", "-e", "-eo", "-i", "-cwd", "-outdir", "-Jd", "-P"}


def _without_a_refusal(options, cases, elsewhere):
    """The options taking a value that neither CASES nor ELSEWHERE show a
    refusal of (ANY_VALUE: LSF takes any word)."""
    shown = {flag for flag, _, _ in cases} | set(elsewhere) | ANY_VALUE
    return sorted({opt.flags[0] for opt in options if opt.takes} - shown)


def test_every_bsub_value_has_its_refusal_shown():
    assert _without_a_refusal(bsub.OPTIONS, BAD_SUBMIT_VALUES + BSUB_ONLY,
                              CHECKED_ELSEWHERE) == [], \
        "add a value LSF refuses to BAD_SUBMIT_VALUES or BSUB_ONLY, or the " \
        "test that shows it to CHECKED_ELSEWHERE (ANY_VALUE when LSF " \
        "takes any word)"


@pytest.mark.parametrize("flag, value, message",
                         BAD_SUBMIT_VALUES + BSUB_ONLY)
def test_bsub_refuses_values_lsf_refuses(flag, value, message):
    if flag not in bsub.PARSER.by_flag:
        pytest.skip(f"bsub {flag} is refused whole (not implemented)")
    if _refused_empty(bsub.PARSER, flag, value, [flag, value, "true"]):
        return                              # before anything else
    opts = bsub._parse([flag, value, "true"])
    with pytest.raises(sub.SubmitError) as e:
        bsub.build_spec(opts, _Site())
    _one_line(str(e.value), message)


BSUB_VALUE_FLAGS = [f for o in bsub.OPTIONS if o.takes for f in o.flags]


@pytest.mark.parametrize("flag", BSUB_VALUE_FLAGS)
def test_bsub_refuses_an_empty_value_of_each_option(flag):
    """Honour or refuse: LSF documents no empty value of a bsub option, so
    "" is refused in one line naming the option (exit 255, nothing sent,
    as tests/cli/test_bsub_options.py shows), never read as the option
    not given (-q "" was the default queue, -outdir "" none).  An option
    whose own check refuses "" in LSF's words (-J: Bad job name) keeps
    them; a #BSUB line is read by the same parser."""
    opt = bsub.PARSER.by_flag[flag]
    if flag == "-R":
        return      # "" is no requirement: test_bsub_R_empty_is_no_requirement
    if opt.empty:
        opts = bsub._parse([flag, "", "true"])
        with pytest.raises(sub.SubmitError) as e:
            bsub.build_spec(opts, _Site())
        _one_line(str(e.value), None)
        return
    for argv in ([flag, "", "true"], ["-J", "x", flag, "", "true"]):
        with pytest.raises(EmptyValue) as e:
            bsub._parse(argv)
        assert str(e.value) == f"bsub: {flag}: Bad argument: the value " \
            "is empty. Job not submitted."
    # A word that is no option is still a value: " " is not "".
    assert bsub._parse([flag, " ", "true"])["command"] == ("true",)


def test_bsub_R_empty_is_no_requirement():
    """bsub -R "" is a job with no resource requirement, as a script that
    writes -R "$REQ" with REQ unset means (the one value option whose
    empty value has a meaning of its own); a blank -R among others adds
    nothing to them."""
    site = _Site()
    plain = bsub.build_spec(bsub._parse(["true"]), site)
    empty = bsub.build_spec(bsub._parse(["-R", "", "true"]), site)
    assert not any(empty.get("resreq") or [])
    assert not empty.get("resreq_merged")
    req = ("resreq", "resreq_merged")
    assert {k: v for k, v in empty.items() if k not in req} == \
        {k: v for k, v in plain.items() if k not in req}
    both = bsub.build_spec(bsub._parse(["-R", "", "-R", "span[hosts=1]",
                                        "true"]), site)
    assert [r for r in both["resreq"] if r] == ["span[hosts=1]"]


BMOD_VALUE_FLAGS = [f for o in bmod.OPTIONS if o.takes for f in o.flags]


@pytest.mark.parametrize("flag", BMOD_VALUE_FLAGS)
def test_bmod_refuses_an_empty_value_of_each_option(flag):
    """bmod as bsub: "" is no value (bmod -W "" changed nothing and said
    nothing); a removal is its -Xn form."""
    if bmod.PARSER.by_flag[flag].empty:
        values, _ = bmod.PARSER.parse([flag, "", "1"])
        with pytest.raises(sub.SubmitError):
            modify_spec(values, "KB")
        return
    assert _refused_empty(bmod.PARSER, flag, "", [flag, "", "1"])


def test_bsub_empty_values_are_the_parsers_one_rule():
    """Only bsub's and bmod's tables refuse "" (others, such as badmin's
    -C comment, take it); within them, -J, -Q and -u let their own
    checks answer ("Bad job name", "Bad requeue exit value list", "Bad
    mail address"), and bsub -R "" is no requirement."""
    for module, empty in ((bsub, ["-J", "-Q", "-R", "-u"]), (bmod, ["-J"])):
        assert module.PARSER.empty_values is False
        assert sorted(o.flags[0] for o in module.OPTIONS
                      if o.takes and o.empty) == empty
    values, _ = Parser("bx", [Opt("-C", "comment")]).parse(["-C", ""])
    assert values["comment"] == ""


@pytest.mark.parametrize("flag, value, message", BAD_SUBMIT_VALUES)
def test_bmod_refuses_the_same_values(flag, value, message):
    if _refused_empty(bmod.PARSER, flag, value, [flag, value, "1"]):
        return
    values, _ = bmod.PARSER.parse([flag, value, "1"])
    with pytest.raises(sub.SubmitError) as e:
        modify_spec(values, "KB")
    _one_line(str(e.value), message)


# bmod's own values LSF refuses, in bmod's words (bmod adds ". Job not
# modified."), and the values checked against the configuration, each
# shown through the real command.
BMOD_ONLY = [
    ("-L", "bash", "-L: bash: The login shell must be an absolute path"),
    ("-E", " ", "-E: Bad argument: the command is empty"),
    ("-Ep", "", "-Ep: Bad argument: the command is empty"),
    ("-Q", "EXCLUDE(", None), ("-u", "a b", "a b: Bad mail address"),
    ("-b", "x", "x: Bad time specification"),
    ("-t", "x", "x: Bad time specification"),
    ("-We", "x", "x: Bad runtime estimation specification"),
    ("-hostfile", "/nonexistent/h", None), ("-f", "a b c d", None),
    ("-G", "a b", "a b: Bad user group name"), ("-G", "a ~b", None),
    ("-gpu", "num=0", "Bad GPU requirement syntax: num=0: expected 1 to "
     "1024, optionally /host or /task"),
    ("-c", "x", "x: Bad CPULIMIT specification"),
    *[(flag, "x", f"x: {name} value should be a positive integer")
      for flag, name in (("-v", "SWAPLIMIT"), ("-S", "STACKLIMIT"),
                         ("-F", "FILELIMIT"), ("-D", "DATALIMIT"),
                         ("-C", "CORELIMIT"), ("-p", "PROCESSLIMIT"),
                         ("-T", "THREADLIMIT"))],
]
BMOD_CHECKED_ELSEWHERE = {
    "-q": "tests/cli/test_modify.py::test_bmod_bad_input",
    "-w": "tests/cli/test_modify.py::"
          "test_bmod_w_and_wn_change_the_dependency_and_are_logged",
    "-app": "tests/cli/test_live_merge.py",
    "-g": "tests/cli/test_live_merge.py",
    "-G": "tests/cli/test_modify_run_setup.py::test_bmod_G_files_a_"
          "pending_job_under_another_group_and_Gn_removes_it",
}


def test_every_bmod_value_has_its_refusal_shown():
    assert _without_a_refusal(bmod.OPTIONS, BAD_SUBMIT_VALUES + BMOD_ONLY,
                              BMOD_CHECKED_ELSEWHERE) == [], \
        "add a value LSF refuses to BMOD_ONLY, or the test that shows it " \
        "to BMOD_CHECKED_ELSEWHERE"


@pytest.mark.parametrize("flag, value, message", BMOD_ONLY)
def test_bmod_refuses_its_own_bad_values(flag, value, message):
    test_bmod_refuses_the_same_values(flag, value, message)


def _refused_empty(parser, flag, value, argv):
    """True when *parser* refuses *value* ("" for an option without
    empty=True) as it parses *argv*, in its one line."""
    if value != "" or parser.by_flag[flag].empty:
        return False
    with pytest.raises(EmptyValue) as e:
        parser.parse(argv)
    assert str(e.value) == f"{parser.prog}: {flag}: Bad argument: the " \
        f"value is empty{parser.not_done}"
    return True


def _one_line(text, message):
    assert text and "\n" not in text
    if message is not None:
        assert text == message


# Other commands: values refused before any state is read.
BAD_COMMAND_VALUES = [
    (["bkill", "-s", "NOSUCH", "1"], "NOSUCH: Illegal signal value"),
    (["bkill", "-s", "\u00b9", "1"], "\u00b9: Illegal signal value"),
    (["bwait", "-w", "done(1)", "-t", "0"], "0: Bad time specification"),
    (["bwait", "-w", "done(1)", "-t", BIG], f"{BIG}: Bad time "
     "specification"),
    (["bwait", "-w", "done(1)", "-r", "0"], "0: Bad time specification"),
    (["bwait", "-w", "done(1)", "-r", "x"], "x: Bad time specification"),
    (["bjdepinfo", "-r", "0", "1"], "bjdepinfo: -r: bad value '0'"),
    (["bpost", "-i", BIG, "-d", "x", "1"], f"bpost: -i: bad value '{BIG}'"),
    (["bread", "-i", "\uff13", "1"], "bread: -i: bad value '\uff13'"),
    (["bhist", "-n", "x"], "bhist: The number of event log files must be "
     "a positive integer."),
    (["btop", "1", "0"], "btop: 0: Position value must be a positive "
     "integer."),
]


@pytest.mark.parametrize("argv, message", BAD_COMMAND_VALUES,
                         ids=[" ".join(a[:3]) for a, _ in BAD_COMMAND_VALUES])
def test_other_commands_refuse_values_lsf_refuses(argv, message,
                                                  monkeypatch):
    monkeypatch.setenv("XCE_ENVDIR", "/nonexistent")
    code, out, err = _main(MODULES[argv[0]], argv[1:])
    assert (code, out) == (255, "")
    assert err.splitlines()[0] == message
    import gc
    gc.enable()             # bhist turns the collector off for its run


# -- the man pages say the same ------------------------------------------------
def _page_refusals(command):
    """The option words of the page's LSF OPTIONS NOT SUPPORTED section."""
    import re
    page = (REPO / "man" / "man1" / f"{command}.1").read_text()
    start = page.index(".SH LSF OPTIONS NOT SUPPORTED")
    section = page[start:page.index("\n.SH ", start + 1)].replace("\\-", "-")
    words = re.findall(r"(?<![\w-])(-[A-Za-z][\w+-]*)", section)
    return set(words) - {"-V"}


@pytest.mark.parametrize("command", sorted(set(MODULES) - {"bsub"}))
def test_each_page_lists_the_options_its_table_refuses(command):
    refused = set().union(*(parser.refused for label, _, _, parser in TABLES
                            if label.split()[0] == command))
    assert _page_refusals(command) == refused, \
        f"man/man1/{command}.1: LSF OPTIONS NOT SUPPORTED must list " \
        "exactly the options the table refuses"


def test_bhosts_long_gpu_is_refused_before_anything_is_read(monkeypatch):
    from xce.cli import bhosts
    monkeypatch.setenv("XCE_ENVDIR", "/nonexistent")
    for argv in (["-l", "-gpu"], ["-gpu", "-l", "hostA"]):
        code, out, err = _main(bhosts, argv)
        assert (code, out) == (255, "")
        assert err == "bhosts: option -gpu with -l is not supported by " \
                      "xce\n"
