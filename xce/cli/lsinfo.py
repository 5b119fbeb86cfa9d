"""lsinfo: the cluster's resources, host types and host models."""

import json

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.cluster.lsinfo import lsinfo_text
from xce.client.site import open_state

OPTIONS = [
    Opt("-r", "resources", takes=False, help="Resources only."),
    Opt("-t", "types", takes=False, help="Host types only."),
    Opt("-m", "models", takes=False, help="Host models only."),
    Opt("-M", "all_models", takes=False, help="Host models only (all of "
        "them)."),
]
# The rest of LSF 10.1's lsinfo options.
UNSUPPORTED = ("-l",)
PARSER = Parser("lsinfo", OPTIONS, help_text="Display the resources, host "
                "types and host models of the cluster.",
                args_metavar="[resource_name ...]", refused=UNSUPPORTED)


def lsinfo(o, args):
    _, reader = open_state()
    with reader:
        raw = reader.meta().get("config_sections")
    conf = json.loads(raw) if raw else {}
    models = o["models"] or o["all_models"]
    chosen = (o["resources"] or bool(args), o["types"], models)
    if not any(chosen):
        chosen = (True, True, True)
    print(lsinfo_text(conf, *chosen, names=tuple(args)))
    return 0


def main(argv=None):
    run(PARSER, lsinfo, argv)


if __name__ == "__main__":
    main()
