"""The agent's job starter and login shell wrapping, and LSB_JOBEXIT_STAT."""

from xce.agent.prepost import exit_stat, wrapped_command


def test_a_plain_job_is_not_wrapped():
    assert wrapped_command({"command": "echo hi"}, "/p/1.0.1") is None


def test_usrcmd_is_replaced_else_the_command_follows_the_starter():
    msg = {"command": "echo hi", "starter": 'sh -c "x; %USRCMD; y"'}
    assert wrapped_command(msg, "/p") == 'sh -c "x; echo hi; y"'
    msg = {"command": "echo hi", "starter": "nice -n 5"}
    assert wrapped_command(msg, "/p") == "nice -n 5 echo hi"


def test_a_script_job_is_passed_as_its_quoted_path_and_arguments():
    msg = {"command": "#!/bin/sh", "jobfile": "#!/bin/sh\n",
           "args": ["a b", "c"], "starter": "env X=1"}
    assert wrapped_command(msg, "/p/1.0.1") == "env X=1 /p/1.0.1.job 'a b' c"


def test_the_login_shell_runs_the_started_command():
    msg = {"command": "echo $HOME", "starter": "nice",
           "login_shell": "/bin/bash"}
    assert wrapped_command(msg, "/p") == \
        "exec /bin/bash -l -c 'nice echo $HOME'"


def test_exit_stat_is_a_wait_status():
    assert exit_stat(0) == 0 and exit_stat(3) == 768
    assert exit_stat(128 + 9) == 9
