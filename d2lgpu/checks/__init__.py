"""The exercises' checkers, one module per chapter; ``d2lgpu.grading`` imports this package.

Each module registers its checkers with :func:`d2lgpu.grading.checker` when it
is imported. A checker tests the *behaviour* of an answer (what it
synchronized, what it transferred, where its tensors live, whether its results
agree with a reference), on any machine: where the lesson needs a GPU, the
checker uses a stand-in that behaves like one in the respect being checked (a
simulated asynchronous device, fake GPU counts, the ``meta`` device, a
checkpoint that claims to come from a GPU this machine lacks). The list of
checks that passed never contains hardware-dependent numbers, so a solution
notebook's ``PASS`` report is the same on a laptop and on a GPU server.

======================  ==============================================================
``ch01_devices``        ``01.placement``
``ch02_tensors``        ``02.time_fn``, ``02.frobenius``, ``02.concurrency``
``ch03_networks``       ``03.parameters``, ``03.device_bug``
``ch04_amp``            ``04.amp``
``ch05_ddp``            ``05.ddp`` (launches the learner's script with torchrun)
``ch06_performance``    ``06.slowest_op``
======================  ==============================================================

What it is not: a test suite for the course itself (that is ``tests/``).
"""

from . import ch01_devices, ch02_tensors, ch03_networks, ch04_amp, ch05_ddp, ch06_performance

__all__ = [
    "ch01_devices",
    "ch02_tensors",
    "ch03_networks",
    "ch04_amp",
    "ch05_ddp",
    "ch06_performance",
]
