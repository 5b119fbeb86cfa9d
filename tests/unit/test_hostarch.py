"""A host of model ! takes the lsf.shared model whose ARCHITECTURE strings
match what its agent reports for its CPU; its type is LSF's name for its
system and machine."""

from xce.agent import hostinfo
from xce.config import hostarch

XEON = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model name\t: Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz
bogomips\t: 4389.83
processor\t: 1
model name\t: something else
"""
POWER = "processor\t: 0\ncpu\t\t: POWER8 (architected), altivec supported\n"
SITE = {"host_architectures": {
    "Intel_E5": ["x6_4389_IntelRXeonRCPUE52699v4220GHz"],
    "POWER8": ["POWER8architectedaltivecsupported"],
    "Generic": ["x86_64"],
    "DEFAULT": []}}


def test_agent_reports_lsf_architecture_strings_most_precise_first():
    assert hostinfo.arch_strings("x86_64", XEON) == [
        "x6_4389_IntelRXeonRCPUE52699v4220GHz",
        "IntelRXeonRCPUE52699v4220GHz", "x86_64"]
    assert hostinfo.arch_strings("ppc64le", POWER) == [
        "POWER8architectedaltivecsupported", "ppc64le"]
    assert hostinfo.arch_strings("riscv64", "") == ["riscv64"]


def test_host_type_is_lsf_name_for_system_and_machine():
    assert hostinfo.host_type("Linux", "x86_64") == "X86_64"
    assert hostinfo.host_type("Linux", "aarch64") == "LINUX_ARM64"
    assert hostinfo.host_type("Linux", "ppc64le") == "LINUXPPC64LE"
    assert hostinfo.host_type("Linux", "riscv64") == "RISCV64"


def test_model_matches_the_most_precise_string_first():
    strings = hostinfo.arch_strings("x86_64", XEON)
    assert hostarch.matched_model(SITE, strings) == "Intel_E5"
    assert hostarch.matched_model(SITE, ["AMDEPYC", "x86_64"]) == "Generic"
    assert hostarch.matched_model(SITE, ["POWER8architectedaltivecsupported",
                                         "ppc64le"]) == "POWER8"
    assert hostarch.matched_model(SITE, ["riscv64"]) is None


def test_same_cpu_with_other_bogomips_takes_the_nearest_model():
    site = {"host_architectures": {
        "slow": ["x6_2000_IntelRXeonRCPU"], "fast": ["x6_4000_IntelRXeonRCPU"],
        "amd": ["x6_4400_AMDEPYC"]}}
    assert hostarch.matched_model(site, ["x6_3900_IntelRXeonRCPU"]) == "fast"
    assert hostarch.matched_model(site, ["x6_2100_IntelRXeonRCPU"]) == "slow"
    assert hostarch.matched_model(site, ["x15_4400_AMDEPYC"]) is None


def test_declared_model_wins_then_matched_then_reported():
    facts = {"model": "X86_64", "arch": ["x86_64"]}
    assert hostarch.host_model(SITE, "Mine", facts) == "Mine"
    assert hostarch.host_model(SITE, "", facts) == "Generic"
    assert hostarch.host_model({}, "", facts) == "X86_64"
