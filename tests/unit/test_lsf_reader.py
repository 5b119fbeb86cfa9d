"""The LSF configuration reader: lexical rules, sections, tables, values."""

import pytest

from xce.config.lsf import cells, files, hostnames, lexer, sections
from xce.config.lsf.diag import Diagnostics
from xce.config.lsf.yamlout import dump, scalar
from xce.lang import units


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def lines_of(tmp_path, text, name="lsb.queues"):
    diags = Diagnostics()
    found = lexer.logical_lines(write(tmp_path, name, text), diags)
    return [(line.text, line.line) for line in found], diags


def messages(diags):
    return [str(d) for d in diags.items]


# -- logical lines ------------------------------------------------------------
def test_comment_runs_to_end_of_line_outside_quotes(tmp_path):
    found, _ = lines_of(tmp_path, 'A = x   # note\nB = "a # b" # c\n# all\n')
    assert found == [("A = x", 1), ('B = "a # b"', 2)]


def test_backslash_joins_lines_with_one_blank(tmp_path):
    found, _ = lines_of(tmp_path, "D = urgent\\\njobs.\nE = a \\\n  b\n")
    assert found == [("D = urgent jobs.", 1), ("E = a    b", 3)]


def test_commented_line_does_not_continue(tmp_path):
    found, _ = lines_of(tmp_path, "# text \\\nA = 1\n")
    assert found == [("A = 1", 2)]


def test_blank_after_backslash_ends_the_line_with_a_warning(tmp_path):
    found, diags = lines_of(tmp_path, "A = 1 \\  \nB = 2\n")
    assert found == [("A = 1", 1), ("B = 2", 2)]
    assert "lsb.queues:1: blank after '\\'" in messages(diags)[0]


def test_crlf_line_endings_are_accepted(tmp_path):
    found, diags = lines_of(tmp_path, "A = 1\r\nB = 2\r\n")
    assert found == [("A = 1", 1), ("B = 2", 2)]
    assert not diags.items


def test_erb_template_lines_are_skipped_with_warning(tmp_path):
    text = "A = 1\n<% @list.each do |m| %>\n<%= m %> 4\n<% end %>\n#x <%= y %>\n"
    found, diags = lines_of(tmp_path, text)
    assert found == [("A = 1", 1)]
    assert [d.line for d in diags.warnings] == [2, 3, 4]
    assert all("Chef ERB template line skipped" in d.message
               for d in diags.warnings)


def test_include_splices_file_relative_to_includer(tmp_path):
    (tmp_path / "inc").mkdir()
    write(tmp_path, "inc/more", "B = 2\n")
    found, diags = lines_of(tmp_path, 'A = 1\n#INCLUDE "inc/more"\nC = 3\n')
    assert [text for text, _ in found] == ["A = 1", "B = 2", "C = 3"]
    assert not diags.items


def test_include_of_missing_file_is_an_error_with_line(tmp_path):
    _, diags = lines_of(tmp_path, 'A = 1\n#INCLUDE "nowhere"\n')
    assert [str(d) for d in diags.errors] == [
        "lsb.queues:2: #INCLUDE nowhere: No such file or directory"]


def test_include_cycle_is_an_error(tmp_path):
    write(tmp_path, "b", '#INCLUDE "lsb.queues"\n')
    _, diags = lines_of(tmp_path, '#INCLUDE "b"\n')
    assert any("forms a cycle" in str(d) for d in diags.errors)


def test_unreadable_file_gives_none_and_an_error(tmp_path):
    (tmp_path / "lsb.queues").symlink_to(tmp_path / "absent")
    diags = Diagnostics()
    assert lexer.logical_lines(tmp_path / "lsb.queues", diags) is None
    assert str(diags.errors[0]) == "lsb.queues: No such file or directory"


def test_latin1_bytes_are_read_with_a_warning(tmp_path):
    (tmp_path / "lsb.queues").write_bytes(b"DESCRIPTION = caf\xe9\n")
    diags = Diagnostics()
    found = lexer.logical_lines(tmp_path / "lsb.queues", diags)
    assert found[0].text == "DESCRIPTION = caf\u00e9"
    assert "not UTF-8" in diags.warnings[0].message


# -- cells and values -----------------------------------------------------------
def test_cells_keep_groups_quotes_and_brackets_together():
    row = 'h1 (a b) "x y" ([default]) [h1 h2] () -'
    assert cells.split_cells(row) == (
        ["h1", "(a b)", '"x y"', "([default])", "[h1 h2]", "()", "-"], None)


def test_parenthesis_group_ends_at_first_close():
    assert cells.split_cells("([alice,3] [bob,1]) x")[0] == [
        "([alice,3] [bob,1])", "x"]


def test_unclosed_group_is_reported():
    assert cells.split_cells("a (b c")[1] == "'(' without ')'"


@pytest.mark.parametrize("cell, value", [
    ("()", None), ("-", None), ("( a   b )", "a b"), ('"x  y"', "x y"),
    ("4", "4"), ("!", "!")])
def test_cell_value(cell, value):
    assert cells.cell_value(cell) == value


def test_strip_parens_follows_openlava_and_flags_several_groups():
    assert cells.strip_parens("(alice bob)") == ("alice bob", False)
    assert cells.strip_parens("(a b) (c)") == ("a b) (c", True)
    assert cells.strip_parens("USER_SHARES[[a,1]]") == (
        "USER_SHARES[[a,1]]", False)


def test_yes_no_numbers_and_placeholders():
    assert cells.yes_no("Y") is True and cells.yes_no("no") is False
    assert cells.yes_no("maybe") is None
    assert cells.number("12") == 12 and cells.number("4.5") == 4.5
    assert cells.number("1:30") is None
    assert cells.looks_like_placeholder("@prefix@/etc")
    assert cells.looks_like_placeholder("__LAVATOP__/conf")
    assert not cells.looks_like_placeholder("node_01")


# -- sections -------------------------------------------------------------------
def parse(tmp_path, kind, text):
    diags = Diagnostics()
    name = kind if kind != "lsf.cluster" else "lsf.cluster.test"
    parsed = files.read_file(kind, write(tmp_path, name, text), diags)
    return parsed, diags


def test_key_value_section_case_blanks_and_last_wins(tmp_path):
    parsed, diags = parse(tmp_path, "lsb.queues", (
        "begin   QUEUE\nQUEUE_NAME=normal\nPRIORITY = 30 # c\n"
        "USERS = (alice bob)\nPRIORITY = 35\nRUN_WINDOW =\nNICE = -\n"
        "End Queue\n"))
    queue = parsed.first("queue")
    assert queue.value("QUEUE_NAME") == "normal"
    assert queue.value("PRIORITY") == "35"
    assert queue.value("USERS") == "alice bob"
    assert queue.value("NICE") is None
    assert messages(diags) == [
        "lsb.queues:5: PRIORITY set again (first at line 3); the last value "
        "wins", "lsb.queues:6: RUN_WINDOW has no value; ignored"]


def test_column_table_maps_by_header_and_marks_empty(tmp_path):
    parsed, diags = parse(tmp_path, "lsb.hosts", (
        "Begin\tHost\nHOST_NAME MXJ jl/u r1m DISPATCH_WINDOW # Keywords\n"
        "hostA 8 () 3.5/4.5 (8:00-18:00 20:00-22:00)\n"
        "default ! - () ()# glued comment\nEnd Host\n"))
    rows = parsed.first("host").rows
    assert parsed.first("host").header == [
        "HOST_NAME", "MXJ", "JL/U", "r1m", "DISPATCH_WINDOW"]
    assert rows[0].cells == {"HOST_NAME": "hostA", "MXJ": "8", "JL/U": None,
                             "r1m": "3.5/4.5",
                             "DISPATCH_WINDOW": "8:00-18:00 20:00-22:00"}
    assert rows[1].get("MXJ") == "!" and rows[1].origin.line == 4
    assert not diags.items


def test_row_with_wrong_number_of_values_is_kept_with_warning(tmp_path):
    parsed, diags = parse(tmp_path, "lsb.hosts", (
        "Begin Host\nHOST_NAME MXJ JL/U\nh1 4\nh2 4 1 9\nEnd Host\n"))
    rows = parsed.first("host").rows
    assert rows[0].cells == {"HOST_NAME": "h1", "MXJ": "4", "JL/U": None}
    assert rows[1].get("JL/U") == "1"
    assert [d.line for d in diags.warnings] == [3, 4]
    assert "OpenLava would drop this row" in diags.warnings[1].message


def test_unknown_column_is_kept_with_warning(tmp_path):
    parsed, diags = parse(tmp_path, "lsb.users", (
        "Begin User\nUSER_NAME MAX_JOBS SHINY\nbob 3 x\nEnd User\n"))
    assert parsed.first("user").rows[0].get("SHINY") == "x"
    assert "unknown column SHINY" in str(diags.warnings[0])


def test_framing_problems_are_warnings_with_lines(tmp_path):
    _, diags = parse(tmp_path, "lsb.queues", (
        "stray text\nBegin Queue\nQUEUE_NAME = a\nBegin Queue\n"
        "QUEUE_NAME = b\nEnd Host\nBegin Bogus\nX = 1\nEnd Bogus\n"
        "Begin Queue\nQUEUE_NAME = c\n"))
    assert sorted((d.line, d.message.split(" ")[0])
                  for d in diags.warnings) == [
        (1, "text"), (4, "Begin"), (6, "End"), (7, "unknown"), (10, "section")]


def test_limit_section_in_both_layouts(tmp_path):
    parsed, _ = parse(tmp_path, "lsb.resources", (
        "Begin Limit\nNAME = a\nSLOTS = 4\nEnd Limit\n"
        "Begin Limit\nNAME USERS SLOTS\nb (x y) 2\nc - 1\nEnd Limit\n"))
    first, second = parsed.all("limit")
    assert first.value("SLOTS") == "4"
    assert [r.cells for r in second.rows] == [
        {"NAME": "b", "USERS": "x y", "SLOTS": "2"},
        {"NAME": "c", "USERS": None, "SLOTS": "1"}]


def test_lsf_conf_quotes_blanks_duplicates(tmp_path):
    parsed, diags = parse(tmp_path, "lsf.conf", (
        'LSF_MASTER_LIST="m1 m2"\nLSF_RSH="ssh -o \'A b\'"\n'
        "LSB_MAILTO=!U\nBAD = 1\nLSF_X=a b\nLSB_MAILTO=admin\n"
        "not a setting\n"))
    items = parsed.sections[0].items
    assert items["LSF_MASTER_LIST"].value == "m1 m2"
    assert items["LSF_RSH"].value == "ssh -o 'A b'"
    assert items["LSB_MAILTO"].value == "admin"
    assert items["BAD"].value == "1"
    assert [d.line for d in diags.warnings] == [4, 5, 6, 7]


def test_lsf_conf_ignores_include_with_warning(tmp_path):
    _, diags = parse(tmp_path, "lsf.conf", '#INCLUDE "x"\nA=1\n')
    assert "not allowed" in diags.warnings[0].message


def test_frame_keeps_origin_of_each_section(tmp_path):
    diags = Diagnostics()
    lines = lexer.logical_lines(write(tmp_path, "f", (
        "\n# c\nBegin Queue\nA = 1\nEnd Queue\n")), diags)
    framed = sections.frame(lines, diags)
    assert framed[0].origin.line == 3 and framed[0].ended


# -- host names and groups ------------------------------------------------------
def test_ranges_keep_zero_padding_and_combine():
    assert hostnames.expand_range("node[001-003]") == [
        "node001", "node002", "node003"]
    assert hostnames.expand_range("r[1-2]n[01-02]") == [
        "r1n01", "r1n02", "r2n01", "r2n02"]
    assert hostnames.expand_range("n[1-3,7,9:10]") == [
        "n1", "n2", "n3", "n7", "n9", "n10"]


@pytest.mark.parametrize("pattern", ["n[1-010]", "n[5-1]", "n[a-b]",
                                     "n[1-9999999]"])
def test_bad_ranges_raise_pattern_error(pattern):
    with pytest.raises(hostnames.PatternError):
        hostnames.expand_range(pattern)


def test_group_expansion_with_all_exclusions_nesting_and_wildcards():
    hosts = ["login1", "node01", "node02", "node03", "gpu1"]
    groups = {"compute": ["node[01-03]", "~node02"],
              "big": ["compute", "gpu*"], "rest": ["all", "~compute"]}
    assert hostnames.expand(["big"], groups, hosts) == [
        "node01", "node03", "gpu1"]
    assert hostnames.expand(["rest"], groups, hosts) == [
        "login1", "node02", "gpu1"]
    assert hostnames.expand(["node01+2", "others"], {}, hosts) == [
        "node01", "others"]


def test_user_groups_keep_all_symbolic():
    groups = {"chem": ["alice", "bob"], "everyone": ["all", "~guest"]}
    assert hostnames.expand(["chem", "carol"], groups) == [
        "alice", "bob", "carol"]
    assert hostnames.expand(["everyone"], groups) == ["all", "~guest"]


def test_group_cycle_is_reported():
    with pytest.raises(hostnames.PatternError, match="a -> b -> a"):
        hostnames.expand(["a"], {"a": ["b"], "b": ["a"]}, [])
    assert hostnames.find_cycle({"x": ["y"], "y": []}) is None


# -- units ------------------------------------------------------------------------
def test_sizes_follow_the_unit_for_limits_unless_suffixed():
    assert units.size_bytes("4", "KB") == 4096
    assert units.size_bytes("2", "MB") == 2 * 1024 ** 2
    assert units.size_bytes("200G", "KB") == 200 * 1024 ** 3
    assert units.size_bytes("4GB") == 4 * 1024 ** 3
    with pytest.raises(ValueError):
        units.size_bytes("lots")
    assert units.normal_unit("mb") == "MB"
    with pytest.raises(ValueError):
        units.normal_unit("XB")


def test_run_limits_in_minutes_with_normalising_host():
    assert units.limit_minutes("90") == (90, None)
    assert units.limit_minutes("2:30") == (150, None)
    assert units.limit_minutes("24:0/apple") == (1440, "apple")
    assert units.limit_pair("60 720") == ["60", "720"]
    with pytest.raises(ValueError):
        units.limit_minutes("forever")


# -- YAML output ------------------------------------------------------------------
@pytest.mark.parametrize("value, text", [
    ("normal", "normal"), ("Y", "'Y'"), ("no", "'no'"), ("!", "'!'"),
    ("~h", "'~h'"), ("1:30", "'1:30'"), ("30", "'30'"), (30, "30"),
    (True, "true"), ("it's", "'it''s'"), ("a\tb", '"a\\tb"'),
    ("For normal jobs.", "For normal jobs.")])
def test_scalars_are_quoted_when_yaml_could_misread_them(value, text):
    assert scalar(value) == text


def test_dump_round_trips_through_a_yaml_reader():
    yaml = pytest.importorskip("ruamel.yaml")
    tree = {"queues": {"q": {"USERS": ["all", "~guest"], "X": "a: b",
                             "E": {}, "L": []}},
            "limits": [{"NAME": "l1", "SLOTS": 4}, {}],
            "host_types": ["T%d" % n for n in range(30)]}
    text = dump(tree, lambda path: "f:%d" % len(path), ["head"])
    assert yaml.YAML(typ="safe").load(text) == tree
    assert "  q:  # f:2" in text
