"""bgdel: delete a job group and its subgroups (none may hold a job)."""

from xce.cli.lsfargs import Parser, run
from xce.client.jobgroups import request
from xce.client.site import Site

# LSF 10.1's other bgdel forms: -u (ignored by LSF with a group name), -c,
# -d idle_time and the group "0".
UNSUPPORTED = ("-u", "-c", "-d")
PARSER = Parser("bgdel", [], args_metavar="job_group_name",
                help_text="Delete a job group and its subgroups.",
                refused=UNSUPPORTED, nargs=(1, 1))


def bgdel(o, args):
    return request(Site(), "del", args[0])


def main(argv=None):
    run(PARSER, bgdel, argv)


if __name__ == "__main__":
    main()
