"""Hierarchical fairshare in the simulator, the same scheduler code as the
controller on the virtual clock: two groups with 3 and 1 shares, the first
dividing its shares evenly between two users, on four slots."""

from xce.sim import engine, swf

from tests.lib.simsite import sim_cluster

YAML = """\
parameters:
  DEFAULT_QUEUE: fair
queues:
  fair:
    PRIORITY: 30
    FAIRSHARE: USER_SHARES[[ga, 3] [gb, 1]]
user_groups:
  ga:
    members: [u1, u2]
    USER_SHARES: ([u1, 1] [u2, 1])
  gb:
    members: [u3]
"""


def _fair_spec():
    """A one-hour trace job's spec in queue fair."""
    return {"command": "x", "name": None, "queue": "fair",
            "nslots": [1, 1], "resreq": [], "depend": None,
            "from_host": "", "runlimit": 3600, "cwd": "/", "subcwd": "/",
            "user_priority": None}


def _start_order(tmp_path, yaml_text):
    cl = sim_cluster(tmp_path, yaml_text, "1x4")
    path = tmp_path / "t.swf"
    # Eight jobs of one hour each from u1, u2 and u3, all at time 0.
    rows, n = [], 0
    for user in (1, 2, 3):
        for _ in range(8):
            n += 1
            rows.append(f"{n} 0 -1 3600 1 -1 -1 1 3600 -1 1 {user} 1 "
                        "-1 -1 -1 -1 -1\n")
    path.write_text("".join(rows))
    jobs = swf.read(path).jobs
    for tj in jobs:
        tj.spec = _fair_spec()
    replay = engine.Replay(cl, jobs).run()
    users = {tj.number: tj.user for tj in jobs}
    return {users[r.number]: sorted(
        x.start for x in replay.records.values()
        if users[x.number] == users[r.number]) for r in
        replay.records.values()}


def _first_round(starts):
    """How many jobs of each user start at time 0."""
    return {user: times.count(0.0) for user, times in starts.items()}


def test_slots_follow_the_share_tree(tmp_path):
    # Four slots at once: ga (3 shares) 1, ga 3/6 against gb 1/3, ga again
    # at the tie (3/9, by name), then gb (1/3 against 3/12).  Inside ga,
    # u1 and u2 (1 share each) take turns.
    assert _first_round(_start_order(tmp_path, YAML)) == \
        {"u1": 2, "u2": 1, "u3": 1}
    # Without ga's own shares its members go FCFS: u1's jobs first.
    flat = _start_order(tmp_path / "flat",
                        YAML.replace("    USER_SHARES: ([u1, 1] [u2, 1])\n",
                                     ""))
    assert _first_round(flat) == {"u1": 3, "u2": 0, "u3": 1}


# ga and gb (1 share each) both have u3; neither divides its shares.
GROUPS_YAML = YAML.replace("[ga, 3]", "[ga, 1]").replace(
    "members: [u1, u2]\n    USER_SHARES: ([u1, 1] [u2, 1])",
    "members: [u1, u3]").replace("members: [u3]", "members: [u2, u3]")


def _u3_starts(tmp_path, yaml_text, group_of):
    """The start times of u3's eight one-hour jobs (all at time 0) on two
    slots, job n submitted with -G group_of(n) (None: without -G)."""
    cl = sim_cluster(tmp_path, yaml_text, "1x2")
    path = tmp_path / "t.swf"
    path.write_text("".join(f"{n} 0 -1 3600 1 -1 -1 1 3600 -1 1 3 1 "
                            "-1 -1 -1 -1 -1\n" for n in range(1, 9)))
    jobs = swf.read(path).jobs
    for tj in jobs:
        tj.spec = _fair_spec()
        if group_of(tj.number):
            tj.spec["user_group"] = group_of(tj.number)
    replay = engine.Replay(cl, jobs).run()
    starts = {r.number: r.start for r in replay.records.values()}
    return [starts[n] for n in range(1, 9)]


def test_bsub_G_jobs_take_turns_by_their_groups(tmp_path):
    # u3 is in ga and gb; four one-hour jobs with -G ga, then four with
    # -G gb, on two slots: each group takes a slot at each round.  Were
    # all charged to ga (the first listed), the -G ga jobs would go
    # first.
    assert _u3_starts(tmp_path, GROUPS_YAML,
                      lambda n: "ga" if n <= 4 else "gb") == \
        [0.0, 3600.0, 7200.0, 10800.0] * 2


FLAT_YAML = """\
parameters:
  DEFAULT_QUEUE: fair
  ENABLE_HIST_RUN_TIME: Y
queues:
  fair:
    PRIORITY: 30
    FAIRSHARE: USER_SHARES[[default, 1]]
"""


def _one_slot_order(tmp_path, yaml_text):
    """The users of eight one-hour jobs (four of u1's, then four of
    u2's, all at time 0) in the order they start on one slot."""
    cl = sim_cluster(tmp_path, yaml_text)
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} 0 -1 3600 1 -1 -1 1 3600 -1 1 {1 if n <= 4 else 2} 1 "
        "-1 -1 -1 -1 -1\n" for n in range(1, 9)))
    jobs = swf.read(path).jobs
    replay = engine.Replay(cl, jobs).run()
    return [r.user for r in sorted(replay.records.values(),
                                   key=lambda r: r.start)]


def test_finished_jobs_run_time_counts_with_enable_hist_run_time(tmp_path):
    # u1's finished hour weighs on u1 (decayed by HIST_HOURS, 5 hours):
    # the users take turns on the one slot.
    assert _one_slot_order(tmp_path, FLAT_YAML) == ["u1", "u2"] * 4
    # Without it nothing is used between two jobs: u1 wins every tie.
    flat = _one_slot_order(tmp_path / "no",
                           FLAT_YAML.replace("  ENABLE_HIST_RUN_TIME: Y\n",
                                             ""))
    assert flat == ["u1"] * 4 + ["u2"] * 4


def _jobs_without_G_in_the_default_group(tmp_path, params):
    """u3's eight one-hour jobs on two slots: four with -G gb, then four
    without -G; their start times."""
    return _u3_starts(tmp_path, GROUPS_YAML.replace(
        "  DEFAULT_QUEUE: fair\n", "  DEFAULT_QUEUE: fair\n" + params),
        lambda n: "gb" if n <= 4 else None)


def test_jobs_without_G_are_charged_to_DEFAULT_USER_GROUP(tmp_path):
    # With DEFAULT_USER_GROUP gb the jobs without -G join the -G gb ones
    # in gb's account: FCFS, two at a time.
    assert _jobs_without_G_in_the_default_group(
        tmp_path, "  DEFAULT_USER_GROUP: gb\n") == \
        [0.0, 0.0, 3600.0, 3600.0, 7200.0, 7200.0, 10800.0, 10800.0]
    # Without it each goes to the account of ga and gb with the higher
    # priority: the two groups take turns.
    assert _jobs_without_G_in_the_default_group(tmp_path / "no", "") == \
        [0.0, 3600.0, 7200.0, 10800.0] * 2


def test_a_job_without_G_goes_to_the_less_used_of_its_users_groups(
        tmp_path):
    # u3 is in ga (listed first) and gb, u1 in ga, u2 in gb; two slots.
    # u1's two-hour job holds one from time 0; at time 60 u3's job and
    # then u2's come, both without -G.  gb is the less used: u3's job is
    # charged there and goes first (gb FCFS).  Charged to ga, the first
    # listed, it would have waited behind u2's.
    cl = sim_cluster(tmp_path, GROUPS_YAML, "1x2")
    path = tmp_path / "t.swf"
    path.write_text(
        "1 0 -1 7200 1 -1 -1 1 7200 -1 1 1 1 -1 -1 -1 -1 -1\n"
        "2 60 -1 3600 1 -1 -1 1 3600 -1 1 3 1 -1 -1 -1 -1 -1\n"
        "3 60 -1 3600 1 -1 -1 1 3600 -1 1 2 1 -1 -1 -1 -1 -1\n")
    replay = engine.Replay(cl, swf.read(path).jobs).run()
    starts = {r.number: r.start for r in replay.records.values()}
    assert starts == {1: 0.0, 2: 60.0, 3: 3660.0}
