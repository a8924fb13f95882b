"""Command line: ``python -m d2lgpu env`` and ``python -m d2lgpu bench``.

Both exit with status 2, and a line saying why, when ``D2LGPU_DEVICE`` names no
device this machine has: ``env`` shows it in its report, ``bench`` prints the
message alone, without a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m d2lgpu",
        description="Helpers of the d2lgpu course.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    env = commands.add_parser(
        "env",
        help="print versions, GPUs, D2LGPU_DEVICE and the course's commit, to paste into an issue",
    )
    env.add_argument("--json", action="store_true", help="print the report as JSON")
    bench = commands.add_parser(
        "bench",
        help="measure this machine: matmul, bandwidth, launch overhead, AMP",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    bench.add_argument("--out", default="bench-results", help="folder for results.json, plots")
    bench.add_argument("--quick", action="store_true", help="small sizes and few repeats (for CI)")
    bench.add_argument(
        "--from",
        dest="results_json",
        metavar="RESULTS_JSON",
        help="measure nothing: redraw the plots and summary of an earlier results.json",
    )
    args = parser.parse_args(argv)

    if args.command == "env":
        from .devices import env_report, format_env_report

        report = env_report()
        print(json.dumps(report, indent=2) if args.json else format_env_report(report, paste=True))
        return 0 if report["d2lgpu_device"]["valid"] else 2
    from . import bench as bench_module
    from ._device_names import DeviceNameError

    try:
        return bench_module.run(out=args.out, quick=args.quick, results_json=args.results_json)
    except DeviceNameError as error:  # the learner's setting, not a bug: no traceback
        print(f"python -m d2lgpu bench: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
