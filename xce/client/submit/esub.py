"""esub and epsub: the site's submission programs in LSF_SERVERDIR.

bsub loads this module only when LSF_SERVERDIR holds an esub or epsub,
or when the job names one (``-a`` or ``LSB_ESUB_METHOD``).  They run in
bsub's own process tree, so with the user's rights, never more.

Order (LSF's mesub): the mandatory ones of ``LSB_ESUB_METHOD``, the plain
``esub``, then those of ``bsub -a``; each sees the parameters as the
previous ones left them.  An esub aborts the submission by exiting with
``LSB_SUB_ABORT_VALUE``; its stderr reaches the user.  epsub runs after
the submission with ``LSB_SUB_JOB_ID``, ``LSB_SUB_JOB_QUEUE`` and
``LSB_SUB_JOB_ERR``; it cannot undo the submission.
"""

import os
import shutil
import subprocess
import tempfile

from xce.client.submit import esubparams
from xce.errors import XceError, text

# LSF's value: an esub exits with it to stop the submission.
ABORT_VALUE = 97
# Seconds an esub or epsub may run before bsub gives up on it.
DEFAULT_TIMEOUT = 60
_NAME_OK = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
               "0123456789_-")


def app_names(site, asked):
    """The application names, mandatory first, each once; XceError on a
    name LSF would not take."""
    names = []
    for value in (site.setting("LSB_ESUB_METHOD") or "", asked or ""):
        for name in value.split():
            if not name or not set(name) <= _NAME_OK or name == "user":
                raise XceError(text("ESUB_BAD_NAME", name=name))
            if name not in names:
                names.append(name)
    return names


def _programs(site, prefix, names):
    """The executables to run, in order; XceError when a named one has
    neither its esub nor its epsub."""
    serverdir = site.setting("LSF_SERVERDIR") or ""
    found = []
    plain = os.path.join(serverdir, prefix)
    if serverdir and os.access(plain, os.X_OK):
        found.append(plain)
    for name in names:
        path = os.path.join(serverdir, f"{prefix}.{name}")
        if serverdir and os.access(path, os.X_OK):
            found.append(path)
        elif not any(os.access(os.path.join(serverdir, f"{p}.{name}"),
                               os.X_OK) for p in ("esub", "epsub")):
            raise XceError(text("ESUB_NOT_FOUND", name=name))
    return found


def _timeout(site):
    try:
        return max(1, int(site.setting("XCE_ESUB_TIMEOUT",
                                       DEFAULT_TIMEOUT)))
    except ValueError:
        return DEFAULT_TIMEOUT


def _run(path, env, timeout):
    """Exit code of one program, its stdout and stderr the user's own;
    XceError when it hangs or cannot start."""
    try:
        proc = subprocess.Popen([path], env=env, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as e:
        raise XceError(text("ESUB_FAILED", path=path, why=e.strerror))
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        # Its whole process group: an esub's children must not outlive it.
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        proc.wait()
        raise XceError(text("ESUB_TIMEOUT", path=path, seconds=timeout))


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="strict") as f:
            return f.read()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as e:
        raise esubparams.BadModification(str(e))


def run_esubs(site, opts, parse_words):
    """Run the esubs on *opts* (bsub's parsed options) and return them as
    modified, every change parsed by *parse_words* (bsub's parser)."""
    names = app_names(site, opts.get("esub"))
    programs = _programs(site, "esub", names)
    if not programs:
        return opts
    if opts.get("cwd") is None and os.environ.get("LSB_JOB_CWD"):
        # bsub takes LSB_JOB_CWD as its -cwd (LSF's order: -cwd, then
        # LSB_JOB_CWD): the esub sees it as LSB_SUB3_CWD, as it would
        # -cwd's, and its change of it is the job's -cwd.
        opts = dict(opts, cwd=os.environ["LSB_JOB_CWD"])
    workdir = tempfile.mkdtemp(prefix="xce-esub.")
    try:
        for path in programs:
            opts = _one_esub(site, path, opts, workdir, parse_words)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return opts


def _one_esub(site, path, opts, workdir, parse_words):
    files = {k: os.path.join(workdir, k.lower()) for k in (
        "LSB_SUB_PARM_FILE", "LSB_SUB_MODIFY_FILE",
        "LSB_SUB_MODIFY_ENVFILE")}
    for name in files.values():
        if os.path.exists(name):
            os.unlink(name)
    command = " ".join(opts.get("command") or ())
    with open(files["LSB_SUB_PARM_FILE"], "w") as f:
        f.write("\n".join(esubparams.parm_lines(opts, command)) + "\n")
    env = dict(os.environ, LSB_SUB_ABORT_VALUE=str(ABORT_VALUE),
               LSB_SUB_COMMANDNAME="bsub", **files)
    if opts.get("esub"):
        env["LSB_SUB_ADDITIONAL"] = opts["esub"]
    code = _run(path, env, _timeout(site))
    if code == ABORT_VALUE:
        raise XceError(text("ESUB_ABORTED"))
    if code != 0:
        why = f"exit {code}" if code > 0 else f"signal {-code}"
        raise XceError(text("ESUB_FAILED", path=path, why=why))
    try:
        pairs = esubparams.parse_modify_file(
            _read(files["LSB_SUB_MODIFY_FILE"]))
        words, cleared = esubparams.option_words(pairs)
        env_pairs = esubparams.parse_modify_file(
            _read(files["LSB_SUB_MODIFY_ENVFILE"]))
    except esubparams.BadModification as e:
        raise XceError(text("ESUB_BAD_OUTPUT", path=path, why=e))
    return _apply(opts, words, cleared, env_pairs, parse_words, path)


def _apply(opts, words, cleared, env_pairs, parse_words, path):
    if words:
        try:
            changed = parse_words(words)
        except XceError as e:
            raise XceError(text("ESUB_BAD_OUTPUT", path=path, why=e))
        changed.pop("command", None)
        for key, value in changed.items():
            if value not in (None, False, ()):
                opts[key] = value
    opts.update(cleared)
    # The job's environment is bsub's: the variables go to the job as if
    # the user had set them before bsub.
    for name, value in env_pairs:
        os.environ[name] = value
    return opts


def run_epsubs(site, opts, jobid, queue):
    """Run the epsubs after the submission; a failure is reported and
    leaves the job submitted."""
    names = app_names(site, opts.get("esub"))
    programs = _programs(site, "epsub", names)
    if not programs:
        return
    workdir = tempfile.mkdtemp(prefix="xce-epsub.")
    try:
        parm = os.path.join(workdir, "lsb_sub_parm_file")
        with open(parm, "w") as f:
            f.write("\n".join(esubparams.parm_lines(
                opts, " ".join(opts.get("command") or ()))) + "\n")
        env = dict(os.environ, LSB_SUB_JOB_ID=str(jobid),
                   LSB_SUB_JOB_QUEUE=queue, LSB_SUB_JOB_ERR="",
                   LSB_SUB_PARM_FILE=parm)
        for path in programs:
            try:
                _run(path, env, _timeout(site))
            except XceError as e:
                import sys
                print(e, file=sys.stderr)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
