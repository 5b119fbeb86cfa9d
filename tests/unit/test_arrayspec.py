"""Job array name specs (`bsub -J "name[1-100:2,200]%5"`)."""

import pytest

from xce.model.arrayspec import (
    MAX_JOB_ARRAY_SIZE, ArraySpec, ArraySpecError, end_and_step,
    format_index_ranges, name_matches,
    parse_index_list, parse_job_name,
)


@pytest.mark.parametrize("text, name, indices, limit", [
    ("plain", "plain", (), None),
    ("toil_job_17", "toil_job_17", (), None),
    ("with space", "with space", (), None),
    ("pct%5", "pct%5", (), None),
    ("a[1]", "a", (1,), None),
    ("a[1-5]", "a", (1, 2, 3, 4, 5), None),
    ("a[1-10:3]", "a", (1, 4, 7, 10), None),
    ("a[1-9:4]", "a", (1, 5, 9), None),
    ("a[1,3,7-9]", "a", (1, 3, 7, 8, 9), None),
    ("a[7-9,1,3]", "a", (1, 3, 7, 8, 9), None),
    ("a[1-3,2-4,3]", "a", (1, 2, 3, 4), None),
    ("a[ 1-3 , 5 ]", "a", (1, 2, 3, 5), None),
    ("a[1-1000]%10", "a", tuple(range(1, 1001)), 10),
    ("a[5-5]%1", "a", (5,), 1),
    ("nf-run_x[1-3]", "nf-run_x", (1, 2, 3), None),
])
def test_parse_job_name(text, name, indices, limit):
    spec = parse_job_name(text)
    assert (spec.name, spec.indices, spec.limit) == (name, indices, limit)
    assert spec.is_array == bool(indices)


def test_stepped_ranges_and_lists_combine():
    spec = parse_job_name("name[1-100:2,200]%5")
    assert spec.indices == tuple(range(1, 100, 2)) + (200,)
    assert spec.limit == 5
    assert len(spec.indices) == 51


@pytest.mark.parametrize("text", [
    "", "a" * 4095, "a]", "a[", "a[1-3", "a[1-3]x", "a[1-3][4]", "a[[1]]",
    "[1-3]", "a[x]", "a[1-3a]", "a[1;2]", "a[b]c", "x[1]y[2]", "a[1-3]%2[4]",
    "a[-]x",
])
def test_bad_job_names(text):
    with pytest.raises(ArraySpecError) as err:
        parse_job_name(text)
    assert err.value.message == "Bad job name"


@pytest.mark.parametrize("text", [
    "a[]", "a[0]", "a[0-3]", "a[5-1]", "a[1-]", "a[-3]", "a[1,,2]",
    "a[1-3:0]", "a[1:2]", "a[1-3:]", "a[1-3:2:1]", "a[,]", "a[1-3]%0",
    "a[1-3]%", "a[1-3]%x", "a[1-3]%-1", "a[1-3]%2.5", "a[1 - 3]",
])
def test_array_index_errors(text):
    with pytest.raises(ArraySpecError) as err:
        parse_job_name(text)
    assert err.value.message == "Job array index error"


@pytest.mark.parametrize("text", [
    "a[1001]", "a[1-1001]", "a[1-99999999999999999999]", "a[5,2000]",
])
def test_index_too_large(text):
    with pytest.raises(ArraySpecError) as err:
        parse_job_name(text)
    assert err.value.message == "Job array index too large"


def test_max_array_size_is_configurable():
    assert MAX_JOB_ARRAY_SIZE == 1000
    assert parse_job_name("a[1000]").indices == (1000,)
    assert parse_job_name("a[1-5000]", max_size=5000).indices[-1] == 5000
    with pytest.raises(ArraySpecError) as err:
        parse_job_name("a[11]", max_size=10)
    assert err.value.message == "Job array index too large"


def test_longest_name_accepted():
    assert parse_job_name("a" * 4094).name == "a" * 4094


def test_parse_index_list_alone():
    assert parse_index_list("3,1-2") == (1, 2, 3)
    with pytest.raises(ArraySpecError):
        parse_index_list("")


@pytest.mark.parametrize("indices, text", [
    ([], ""),
    ([7], "7"),
    ([1, 2, 3, 4, 5, 7], "1-5,7"),
    ([7, 1, 3, 2, 5, 4], "1-5,7"),
    ([1, 1, 2], "1-2"),
    ([1, 3, 5], "1,3,5"),
    ([1, 2, 4, 5, 9], "1-2,4-5,9"),
    (range(1, 1001), "1-1000"),
])
def test_format_index_ranges(indices, text):
    assert format_index_ranges(indices) == text


@pytest.mark.parametrize("text, canonical", [
    ("plain", "plain"),
    ("a[1-5,7]%2", "a[1-5,7]%2"),
    ("a[7,1-5]", "a[1-5,7]"),
    ("a[1-7:3]", "a[1,4,7]"),
])
def test_canonical_form_parses_back(text, canonical):
    spec = parse_job_name(text)
    assert str(spec) == canonical
    assert parse_job_name(str(spec)) == spec


def test_element_names():
    spec = parse_job_name("sim[1-3]")
    assert [spec.element_name(i) for i in spec.indices] == \
        ["sim[1]", "sim[2]", "sim[3]"]


def test_spec_is_immutable():
    spec = ArraySpec("a", (1, 2), 1)
    with pytest.raises(AttributeError):
        spec.limit = 3


@pytest.mark.parametrize("name, bounds", [
    ("sim[2-8:3]", (8, 3)), ("sim[1-10:4]", (9, 4)), ("sim[1-5]", (5, 1)),
    ("sim[1,5,7-8]", (8, 1)), ("sim[3]%2", (3, 1)), ("plain", None)])
def test_end_and_step_are_the_largest_index_and_the_ranges_step(name, bounds):
    assert end_and_step(name) == bounds


@pytest.mark.parametrize("job_name, pattern, matched", [
    ("sim[2]", "sim[1-3]", True), ("sim[4]", "sim[1-3]", False),
    ("sim[7]", "sim[1,7-9:2]", True), ("sim[8]", "sim[1,7-9:2]", False),
    ("sim[2]", "s*[1-3]", True), ("other[2]", "sim[1-3]", False),
    ("sim", "sim[1-3]", False), ("sim[1-3]", "sim[1-3]", False),
    ("sim[3]", "sim[3]", True), ("sim[30]", "sim[3]", False),
])
def test_a_name_with_an_index_list_names_those_elements(job_name, pattern,
                                                         matched):
    assert name_matches(job_name, pattern) is matched
