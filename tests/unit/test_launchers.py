"""The user commands' lean launchers (xce.cli.launchers): written over
pip's wrappers of user commands only, and they run the command."""

import os
import subprocess
import sys
from pathlib import Path

from xce.cli import bundle, launchers

REPO = Path(__file__).resolve().parents[2]


def pip_wrapper(python, module):
    # What pip writes for a console_scripts entry point.
    return (f"#!{python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
            f"from {module} import main\nif __name__ == '__main__':\n"
            "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', "
            "sys.argv[0])\n    sys.exit(main())\n")


def _bindir(tmp_path, python=sys.executable):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name, module in (("bsub", "xce.cli.bsub"), ("bjobs", "xce.cli.bjobs"),
                         ("xce-controller", "xce.cli.xce_controller"),
                         ("xce", "xce.cli.xce"),
                         ("pip", "pip._internal.cli.main")):
        (bindir / name).write_text(pip_wrapper(python, module))
        (bindir / name).chmod(0o755)
    (bindir / "activate").write_text("# no shebang\n")
    return bindir


def test_user_commands_get_a_launcher_without_the_site_module(tmp_path):
    bindir = _bindir(tmp_path)
    before = {p.name: p.read_text() for p in bindir.iterdir()}
    assert launchers.rewrite(bindir, str(REPO)) == ["bjobs", "bsub"]
    text = (bindir / "bsub").read_text()
    assert text.splitlines()[0] == f"#!{sys.executable} -S"
    assert f"sys.path.append({str(REPO)!r})" in text
    assert "bundle.run('xce.cli.bsub', " in text
    assert os.access(bindir / "bsub", os.X_OK)
    for kept in ("xce-controller", "xce", "pip", "activate"):
        assert (bindir / kept).read_text() == before[kept]
    # A second run writes the same launchers again (a newer xce: anew).
    assert launchers.rewrite(bindir, str(REPO)) == ["bjobs", "bsub"]
    assert (bindir / "bsub").read_text() == text
    for kept in ("xce-controller", "xce", "pip", "activate"):
        assert (bindir / kept).read_text() == before[kept]


def _run(argv, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["XCE_ENVDIR"] = str(tmp_path)       # no cluster there
    out = subprocess.run(argv, capture_output=True, text=True, env=env,
                         cwd=tmp_path, stdin=subprocess.DEVNULL)
    return out.returncode, out.stdout, out.stderr


def test_a_launcher_runs_its_command_as_pips_wrapper_does(tmp_path):
    bindir = _bindir(tmp_path)
    (bindir / "pip-bsub").write_text((bindir / "bsub").read_text())
    (bindir / "pip-bsub").chmod(0o755)
    launchers.rewrite(bindir, str(REPO))
    for args in (["-h"], ["-V"], ["-zz", "true"], ["true"], []):
        lean = _run([str(bindir / "bsub"), *args], tmp_path)
        pips = _run([str(bindir / "pip-bsub"), *args], tmp_path)
        assert lean == pips, args
    assert _run([str(bindir / "bsub"), "-zz", "true"], tmp_path)[0] == 255


def _fake_lib(tmp_path):
    """An installed xce of packages and the bundle module alone."""
    lib = tmp_path / "lib"
    mods = lib / "xce" / "cli"
    mods.mkdir(parents=True)
    for d in (mods.parent, mods):
        (d / "__init__.py").write_text("")
    (mods / "bundle.py").write_text((REPO / "xce/cli/bundle.py").read_text())
    return lib


def test_a_launcher_keeps_every_kind_of_exit(tmp_path):
    """Plain statuses take the quick exit; a message as the status, and a
    thread still running, take Python's own."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    mods = _fake_lib(tmp_path) / "xce" / "cli"
    (mods / "probe.py").write_text(
        "import atexit, sys, threading, time\n"
        "def main():\n"
        "    atexit.register(print, 'atexit ran')\n"
        "    print('out', end='')\n"
        "    how = sys.argv[1]\n"
        "    if how == 'thread':\n"
        "        threading.Thread(target=lambda: (time.sleep(0.2), "
        "print('thread ended'))).start()\n"
        "        return 3\n"
        "    if how == 'raise':\n"
        "        raise SystemExit(4)\n"
        "    return {'none': None, 'int': 7, 'text': 'failed'}[how]\n")
    (bindir / "probe").write_text(pip_wrapper(sys.executable,
                                              "xce.cli.probe"))
    (bindir / "probe").chmod(0o755)
    launchers.rewrite(bindir, str(tmp_path / "lib"))
    probe = str(bindir / "probe")
    assert _run([probe, "none"], tmp_path) == (0, "outatexit ran\n", "")
    assert _run([probe, "int"], tmp_path) == (7, "outatexit ran\n", "")
    assert _run([probe, "raise"], tmp_path) == (4, "outatexit ran\n", "")
    assert _run([probe, "text"], tmp_path) == (1, "outatexit ran\n",
                                               "failed\n")
    assert _run([probe, "thread"], tmp_path) == \
        (3, "outthread ended\natexit ran\n", "")


def test_a_long_interpreter_path_keeps_pips_wrapper(tmp_path):
    python = "/" + "p" * launchers.SHEBANG_MAX
    bindir = _bindir(tmp_path, python=python)
    assert launchers.rewrite(bindir, str(REPO)) == []


def test_a_launcher_loads_the_bundled_modules_and_never_a_stale_one(
        tmp_path):
    lib = _fake_lib(tmp_path)
    source = lib / "xce" / "cli" / "probe.py"
    source.write_text(
        "def main():\n"
        "    print(__spec__.loader.__class__.__name__, __file__, WORD)\n"
        "WORD = 'bundled'\n")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "probe").write_text(pip_wrapper(sys.executable,
                                              "xce.cli.probe"))
    (bindir / "probe").chmod(0o755)
    launchers.rewrite(bindir, str(lib))
    assert launchers.loaded_at_start(str(lib), ["xce.cli.probe"]) == \
        ["xce", "xce.cli", "xce.cli.probe"]
    assert bundle.write(str(lib), ["xce", "xce.cli", "xce.cli.probe"]) == 3
    probe = str(bindir / "probe")
    assert _run([probe], tmp_path) == \
        (0, f"Bundle {source} bundled\n", "")
    # The bundle's own module came from the boot file, not a finder.
    source.write_text(source.read_text().replace(
        "WORD)", "WORD, 'xce.cli.bundle' in __import__('sys').modules)"))
    bundle.write(str(lib), ["xce", "xce.cli", "xce.cli.probe"])
    assert _run([probe], tmp_path) == \
        (0, f"Bundle {source} bundled False\n", "")
    Path(bundle.boot_path(str(lib))).write_bytes(b"\0" * 16)
    assert _run([probe], tmp_path) == \
        (0, f"Bundle {source} bundled True\n", "")
    # The source changed after the bundle was made: the usual finder.
    source.write_text(source.read_text().replace("'bundled'", "'fresh'"))
    assert _run([probe], tmp_path) == \
        (0, f"SourceFileLoader {source} fresh True\n", "")
    # A bundle of another interpreter (or a broken one) is not used.
    Path(bundle.path(str(lib))).write_bytes(b"\0" * 16)
    assert _run([probe], tmp_path)[1].startswith("SourceFileLoader")


def _installed(lib, dist="xce-0.1.0", files=("xce/__init__.py",)):
    """A distribution's metadata as pip leaves it in *lib*."""
    info = lib / f"{dist}.dist-info"
    info.mkdir()
    name, version = dist.split("-")
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "INSTALLER").write_text("pip\n")
    listed = [*files] + [f"{info.name}/{f}" for f in
                         ("METADATA", "INSTALLER", "RECORD")]
    (info / "RECORD").write_text("".join(f"{f},,\n" for f in listed))
    return info / "RECORD"


def test_the_bundle_is_listed_once_in_xces_record_only(tmp_path):
    lib = _fake_lib(tmp_path)
    other = _installed(lib, "xcelike-2.0", ("xcelike/__init__.py",))
    mine = _installed(lib)
    before = mine.read_text()
    path = bundle.path(str(lib))
    assert launchers.record(str(lib), path)
    entry = os.path.relpath(path, lib)
    assert mine.read_text() == before + f"{entry},,\n"
    assert launchers.record(str(lib), path)     # make install again
    assert mine.read_text() == before + f"{entry},,\n"
    assert entry not in other.read_text()
    # A checkout put on the path has no distribution to tell.
    assert not launchers.record(str(_fake_lib(tmp_path / "co")), path)


def test_pip_uninstall_removes_the_bundle_and_xces_directory(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip",
                    str(venv)], check=True)
    python = str(venv / "bin" / "python")
    lib = Path(subprocess.run(
        [python, "-c", "import sysconfig; "
         "print(sysconfig.get_paths()['purelib'])"], check=True,
        capture_output=True, text=True).stdout.strip())
    for name in ("__init__.py", "cli/__init__.py", "cli/bsub.py",
                 "cli/bundle.py"):
        (lib / "xce" / name).parent.mkdir(parents=True, exist_ok=True)
        (lib / "xce" / name).write_text("")
    _installed(lib, files=("xce/__init__.py", "xce/cli/__init__.py",
                           "xce/cli/bsub.py", "xce/cli/bundle.py"))
    bundle.write(str(lib), ["xce", "xce.cli", "xce.cli.bsub"])
    assert os.path.isfile(bundle.boot_path(str(lib)))
    assert launchers.record(str(lib), bundle.path(str(lib)))
    assert launchers.record(str(lib), bundle.boot_path(str(lib)))
    out = subprocess.run([sys.executable, "-m", "pip", "--python", python,
                          "uninstall", "-y", "xce"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out
    assert not (lib / "xce").exists(), list((lib / "xce").rglob("*"))


def test_the_bundle_loads_extension_modules_without_searching_the_path(
        tmp_path):
    lib = _fake_lib(tmp_path)
    found = launchers.extensions_at_start(str(REPO), ["xce.cli.bsub"])
    assert set(found) >= {"_json", "_sqlite3"}    # imported; AT_RUN
    (tmp_path / "elsewhere").mkdir()
    copy = tmp_path / "elsewhere" / Path(found["_json"]).name
    copy.write_bytes(Path(found["_json"]).read_bytes())
    assert bundle.write(str(lib), ["xce"], {"_json": str(copy)}) == 1
    probe = ("import sys\nsys.path.append(sys.argv[1])\n"
             "from xce.cli import bundle\nbundle.install(sys.argv[1])\n"
             "sys.path_importer_cache.clear()\n"
             "import _json\nprint(_json.__spec__.loader.__class__.__name__,"
             " _json.__file__ == sys.argv[2], len(sys.path_importer_cache))\n")
    run = [sys.executable, "-S", "-c", probe, str(lib), str(copy)]
    out = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout == "ExtensionFileLoader True 0\n", out.stderr
    # A file that changed since the bundle was made: the usual search.
    os.utime(copy, ns=(0, 0))
    out = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.startswith("ExtensionFileLoader False "), out.stderr


def _probe_command(tmp_path, lib, modules):
    """A launcher for xce.cli.probe over *modules* ({name: source})."""
    for name, text in modules.items():
        (lib / (name.replace(".", "/") + ".py")).write_text(text)
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "probe").write_text(pip_wrapper(sys.executable,
                                              "xce.cli.probe"))
    (bindir / "probe").chmod(0o755)
    launchers.rewrite(bindir, str(lib))
    names = launchers.loaded_at_start(str(lib), ["xce.cli.probe"])
    orders = launchers.import_orders(str(lib), ["xce.cli.probe"])
    bundle.write(str(lib), names, None, orders)
    return str(bindir / "probe"), orders


# The probe command's main: which of its modules the import system loaded
# (it leaves _initializing in their specs), whether xce.cli.a is an
# attribute of its package, and a value they computed.
_HOW = ("import sys\n"
        "def how(n):\n"
        "    return hasattr(sys.modules[n].__spec__, '_initializing')\n"
        "def main():\n"
        "    print(*(f\"{n}:{how(n)}\"\n"
        "            for n in sorted(sys.modules) if n.startswith('xce.')\n"
        "            and n != 'xce.cli.bundle'), 'a' in vars(sys.modules"
        "['xce.cli']), LEAF)\n")


def test_a_command_s_modules_run_in_the_order_recorded_at_install(tmp_path):
    lib = _fake_lib(tmp_path)
    probe, orders = _probe_command(tmp_path, lib, {
        "xce.cli.a": "from xce.cli.b import LEAF\nB = LEAF + 1\n",
        "xce.cli.b": "LEAF = 41\n",
        "xce.cli.probe": "from xce.cli.a import B as LEAF\n" + _HOW})
    assert orders == {"xce.cli.probe": ["xce", "xce.cli", "xce.cli.b",
                                        "xce.cli.a", "xce.cli.probe"]}
    # Loaded whole one after the other, none through the import system,
    # each an attribute of its package as the import system leaves it.
    assert _run([probe], tmp_path) == (0, "xce.cli:False xce.cli.a:False "
                                       "xce.cli.b:False xce.cli.probe:False "
                                       "True 42\n", "")
    # A module changed since: it and what follows load the usual way.
    source = lib / "xce/cli/a.py"
    source.write_text(source.read_text() + "# changed\n")
    assert _run([probe], tmp_path)[1] == (
        "xce.cli:False xce.cli.a:True xce.cli.b:False xce.cli.probe:True "
        "True 42\n")


def test_a_command_whose_modules_import_one_still_loading_has_no_order(
        tmp_path):
    lib = _fake_lib(tmp_path)
    probe, orders = _probe_command(tmp_path, lib, {
        "xce.cli.a": "X = 1\nfrom xce.cli.b import LEAF\n",
        "xce.cli.b": "from xce.cli.a import X\nLEAF = X + 41\n",
        "xce.cli.probe": "from xce.cli.a import LEAF\n" + _HOW})
    assert orders == {}
    assert _run([probe], tmp_path) == (0, "xce.cli:True xce.cli.a:True "
                                       "xce.cli.b:True xce.cli.probe:True "
                                       "True 42\n", "")
