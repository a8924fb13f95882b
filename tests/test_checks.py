"""What every checker shares: each exercise has one, and a stub is not attempted yet.

Each checker's own tests are in ``test_checks_chNN*.py`` (reference answers pass,
realistic wrong answers fail with the right hint).

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import pytest
from grading_helpers import stub

from d2lgpu.grading import check, exercise_ids


def test_every_exercise_has_a_checker():
    assert exercise_ids() == [
        "01.placement",
        "02.concurrency",
        "02.frobenius",
        "02.time_fn",
        "03.device_bug",
        "03.parameters",
        "04.amp",
        "05.ddp",
        "06.slowest_op",
        "07.relu_mul",
        "07.rms_norm",
        "08.overlap",
        "09.checkpoint",
        "09.one_f_one_b",
        "09.pipeline",
        "09.tensor_parallel",
        "10.allreduce_grads",
        "10.bus_bandwidth",
        "10.overlap_ddp",
        "10.shard_optimizer",
    ]


@pytest.mark.parametrize("exercise_id", ["01.placement", "02.time_fn", "04.amp", "06.slowest_op"])
def test_a_stub_is_not_attempted_yet(exercise_id):
    assert check(exercise_id, stub, quiet=True).status == "not attempted"


def test_pairs_and_triples_of_stubs_are_not_attempted_yet():
    assert check("02.frobenius", (stub, stub), quiet=True).status == "not attempted"
    assert check("02.concurrency", stub, quiet=True).status == "not attempted"
    assert check("03.parameters", (stub, stub, stub), quiet=True).status == "not attempted"
    assert check("03.device_bug", stub, quiet=True).status == "not attempted"
