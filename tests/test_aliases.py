"""An answer's own names for what a checker replaces (d2lgpu/_aliases.py): which function an
answer runs and which module namespaces it reads, those names bound to the replacement for a
block and back after it, and every replacement made while an answer is graded (the kit's
``patched``, the simulated GPU's ``torch.cuda``, the collectives' watch) meeting them."""

import functools

import torch

from d2lgpu._aliases import (
    aliases_rebound,
    answer_function,
    answer_globals,
    answer_graded,
    graded_answer,
)
from d2lgpu.checks._kit import patched


def _module(source: str) -> dict:
    """The namespace of a learner's module made of ``source``."""
    names: dict = {"__name__": "learner"}
    exec(compile(source, "learner.py", "exec"), names)
    return names


def test_answer_function_is_the_function_a_partial_or_a_callable_object_runs():
    def step(a, b):
        return a + b

    class Step:
        def __call__(self, a):
            return a

    class Inherits(Step):
        pass

    assert answer_function(step) is step
    assert answer_function(functools.partial(functools.partial(step, 1), 2)) is step
    assert answer_function(Inherits()) is Step.__call__
    assert answer_function(torch.matmul) is None  # a builtin: no Python function
    assert answer_function(step).__globals__ is globals()


def test_a_class_reads_the_names_of_its_own_modules_methods_and_not_torchs():
    names = _module(
        "import torch\n"
        "class Base(torch.nn.Module):\n"
        "    def helper(self):\n"
        "        return 1\n"
        "class Answer(Base):\n"
        "    @staticmethod\n"
        "    def s():\n"
        "        return 2\n"
    )
    spaces = answer_globals(names["Answer"])
    assert len(spaces) == 1 and spaces[0] is names  # once, though two classes share it
    assert torch.nn.modules.module.__dict__ not in spaces  # nn.Module's module is torch's
    only_properties = _module("class P:\n    @property\n    def x(self):\n        return 1\n")
    assert answer_globals(only_properties["P"]) == [only_properties]
    assert answer_globals(torch.matmul) == []  # nothing to rebind
    assert answer_globals(torch.cuda.is_available) == []  # torch's own module: left alone
    assert answer_globals(None) == []


def test_names_bound_to_an_original_meet_the_replacement_for_the_block_only():
    answer = _module("from torch.cuda import synchronize\ndef answer():\n    return synchronize\n")
    fn, original = answer["answer"], torch.cuda.synchronize

    def fake(device=None):
        return "fake"

    replaced = [(torch.cuda, "synchronize", original)]
    with aliases_rebound(fn, replaced):  # torch.cuda still holds the original: nothing to do
        assert fn() is original
    torch.cuda.synchronize = fake
    try:
        with aliases_rebound(fn, replaced):
            assert fn() is fake
        assert answer["synchronize"] is original  # put back after the block
    finally:
        torch.cuda.synchronize = original
    assert torch.cuda.synchronize is original


def test_patched_rebinds_the_graded_answers_names_and_only_while_it_is_graded():
    answer = _module("from torch.cuda import synchronize\ndef answer():\n    return synchronize\n")
    fn, original = answer["answer"], torch.cuda.synchronize

    def fake(device=None):
        return "fake"

    assert graded_answer() is None
    with patched((torch.cuda, "synchronize", fake)):
        assert fn() is original  # no answer is graded: nothing of the learner's is touched
    with answer_graded(fn):
        assert graded_answer() is fn
        with answer_graded("inner"):
            assert graded_answer() == "inner"
        assert graded_answer() is fn
        with patched((torch.cuda, "synchronize", fake)):
            assert fn() is fake
        assert fn() is original
    assert graded_answer() is None


def test_the_simulated_gpu_and_the_collectives_watch_meet_the_graded_answers_names(tmp_path):
    import torch.distributed as dist

    from d2lgpu._fake_dist import fake_process_group
    from d2lgpu._sim_streams import SimStream
    from d2lgpu.checks._kit_collectives import CollectiveWatch
    from d2lgpu.stream_sim import simulated_cuda

    answer = _module(
        "import torch\n"
        "from torch.cuda import Stream, current_stream\n"
        "from torch.distributed import all_reduce\n"
        "def streams():\n"
        "    return Stream(), current_stream()\n"
        "def reduce(t):\n"
        "    return all_reduce(t, async_op=True)\n"
    )
    with answer_graded(answer["streams"]), simulated_cuda() as gpu:
        made, current = answer["streams"]()
        assert current is gpu.default and isinstance(made, SimStream) and made is not current
    assert answer["Stream"] is torch.cuda.Stream  # the original again
    with fake_process_group(2, 0), CollectiveWatch(answer=answer["reduce"]) as watch:
        answer["reduce"](torch.ones(3)).wait()
    assert [(c.kind, c.async_op, c.waits) for c in watch.calls] == [("all_reduce", True, 1)]
    assert answer["all_reduce"] is dist.all_reduce


def test_a_class_whose_only_method_is_static_class_or_plain_reads_its_module():
    for method in (
        "    @staticmethod\n    def only():\n        return 1\n",
        "    @classmethod\n    def only(cls):\n        return 1\n",
        "    def only(self):\n        return 1\n",
    ):
        names = _module("class Answer:\n" + method)
        assert answer_globals(names["Answer"]) == [names], method


def test_a_class_whose_methods_come_from_two_modules_reads_both_in_order():
    helpers = _module("def helper(self):\n    return 1\n")
    answer = _module("class Answer:\n    def own(self):\n        return 2\n")
    answer["Answer"].helper = helpers["helper"]  # a method whose module is another one
    spaces = answer_globals(answer["Answer"])
    assert len(spaces) == 2
    assert spaces[0] is answer and spaces[1] is helpers


def test_only_modules_under_the_torch_package_are_left_alone():
    assert answer_globals(torch.nn.functional.relu) == []  # torch.nn.functional: torch's
    for name in ("torchvision_answer", "learner.torch", "mine.torch.utils"):
        names = _module("def answer():\n    return 1\n")
        names["__name__"] = name
        assert answer_globals(names["answer"]) == [names], name


def test_a_partial_of_an_original_made_at_import_meets_the_replacement_too():
    answer = _module(
        "import functools\n"
        "import torch\n"
        "sync = functools.partial(torch.cuda.synchronize, 'cuda:0')\n"
        "other = functools.partial(torch.cuda.is_available)\n"
        "def answer():\n"
        "    return sync\n"
    )
    fn, original = answer["answer"], torch.cuda.synchronize

    def fake(device=None):
        return f"fake {device}"

    with answer_graded(fn), patched((torch.cuda, "synchronize", fake)):
        assert fn()() == "fake cuda:0"  # the same arguments, given to the replacement
        assert answer["other"].func is torch.cuda.is_available  # not replaced: left alone
    assert answer["sync"].func is original and answer["sync"].args == ("cuda:0",)


def test_a_decorated_answer_reads_its_own_module_not_the_decorators():
    # round 27: @torch.no_grad() wraps the function in one of torch's, whose globals are
    # torch's; `from torch.nn.utils import clip_grad_norm_` must still meet a checker's patch
    names = _module(
        "import torch\n"
        "from torch.nn.utils import clip_grad_norm_\n"
        "@torch.no_grad()\n"
        "def average(model):\n"
        "    return clip_grad_norm_\n"
        "class Opt:\n"
        "    @torch.no_grad()\n"
        "    def step(self):\n"
        "        return clip_grad_norm_\n"
    )
    assert answer_function(names["average"]).__globals__ is names
    assert answer_globals(names["average"]) == [names]
    assert answer_globals(names["Opt"]) == [names]
    refused = functools.partial(lambda *a: "refused")
    with answer_graded(names["average"]), patched((torch.nn.utils, "clip_grad_norm_", refused)):
        assert names["average"](None) is refused
    assert names["average"](None) is torch.nn.utils.clip_grad_norm_
