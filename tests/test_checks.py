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
        "08.copy_back",
        "08.overlap",
        "09.checkpoint",
        "09.one_f_one_b",
        "09.pipeline",
        "09.tensor_parallel",
        "10.allreduce_grads",
        "10.bus_bandwidth",
        "10.overlap_ddp",
        "10.shard_optimizer",
        "11.memory",
        "11.plan",
    ]


@pytest.mark.parametrize("exercise_id", ["01.placement", "02.time_fn", "04.amp", "06.slowest_op"])
def test_a_stub_is_not_attempted_yet(exercise_id):
    assert check(exercise_id, stub, quiet=True).status == "not attempted"


def test_pairs_and_triples_of_stubs_are_not_attempted_yet():
    assert check("02.frobenius", (stub, stub), quiet=True).status == "not attempted"
    assert check("02.concurrency", stub, quiet=True).status == "not attempted"
    assert check("03.parameters", (stub, stub, stub), quiet=True).status == "not attempted"
    assert check("03.device_bug", stub, quiet=True).status == "not attempted"


# A first FAIL names the mistake and the API, never a line of the worked answer to paste.


def _solution_code(notebook: str) -> set[str]:
    """The code the worked answers of ``solutions/<notebook>`` are made of: each statement,
    call with arguments, subscript and arithmetic of 12 characters or more between its
    SOLUTION markers, less what the exercise's own prompt and starter code already show."""
    import ast
    import json
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    shown = "".join(
        "".join(cell["source"])
        for cell in json.loads((root / "exercises" / notebook).read_text())["cells"]
    )
    pieces: set[str] = set()
    for cell in json.loads((root / "solutions" / notebook).read_text())["cells"]:
        source = "".join(cell["source"])
        for part in source.split("### BEGIN SOLUTION")[1:]:
            code = textwrap.dedent(part.split("### END SOLUTION")[0])
            try:
                tree = ast.parse(code)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                calls = isinstance(node, ast.Call) and (node.args or node.keywords)
                if calls or isinstance(node, ast.Subscript | ast.BinOp | ast.Assign):
                    piece = ast.get_source_segment(code, node) or ""
                    if len(piece) >= 12 and "\n" not in piece and piece not in shown:
                        pieces.add(piece)
    return pieces


def _wrong_answers():
    """Wrong answers whose first FAIL the learner meets most, by exercise and notebook."""
    import torch

    import d2lgpu

    def per_worker(n):
        return [d2lgpu.try_gpu(i) for i in range(n)]

    def no_sync(work, sync, clock=None, repeats=5):
        work(), sync()
        times = []
        for _ in range(repeats):
            t0 = clock()
            work()
            times.append(clock() - t0)
        return sorted(times)[len(times) // 2]

    def copies_on_one_stream(batches, compute, device):
        return [compute(b.to(device, non_blocking=True)) for b in batches]

    def host_batches(batches, compute, device):
        return [compute(b) for b in batches]

    def copy_back_and_wait_at_once(batches, compute, device, buffers, consume):
        side = torch.cuda.Stream(device)
        for i, b in enumerate(batches):
            y = compute(b.to(device, non_blocking=True))
            side.wait_stream(torch.cuda.current_stream(device))
            with torch.cuda.stream(side):
                y.record_stream(side)
                buffers[i % 2].copy_(y, non_blocking=True)
            side.synchronize()
            consume(i, buffers[i % 2])

    def x_left_on_the_cpu(stage1, stage2, x, y, loss_fn, m):
        d2 = next(stage2.parameters()).device
        loss = sum(
            loss_fn(stage2(stage1(a).to(d2)), b.to(d2)) * len(a) / len(x)
            for a, b in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True)
        )
        loss.backward()
        return loss.detach()

    def weights_on_the_cpu(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    def new_parameter(net):
        net[0].weight = torch.nn.Parameter(net[0].weight.detach() * 0.5)

    def save(net, path):
        torch.save(net.state_dict(), path)

    def load(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        return net

    def halve(net):
        with torch.no_grad():
            net[0].weight.mul_(0.5)

    return [
        ("03.parameters", (new_parameter, save, load), "03_networks.ipynb"),
        ("03.parameters", (halve, save, load), "03_networks.ipynb"),
        ("01.placement", per_worker, "01_devices.ipynb"),
        ("01.placement", lambda n: [d2lgpu.try_all_gpus()[0]] * n, "01_devices.ipynb"),
        ("02.time_fn", no_sync, "02_tensors.ipynb"),
        ("03.device_bug", weights_on_the_cpu, "03_networks.ipynb"),
        ("08.overlap", copies_on_one_stream, "08_streams.ipynb"),
        ("08.overlap", host_batches, "08_streams.ipynb"),
        ("08.copy_back", copy_back_and_wait_at_once, "08_streams.ipynb"),
        ("09.pipeline", x_left_on_the_cpu, "09_model_parallel.ipynb"),
    ]


@pytest.mark.parametrize(
    "exercise, answer, notebook",
    _wrong_answers(),
    ids=[f"{e}-{getattr(a, '__name__', 'tuple')}" for e, a, _ in _wrong_answers()],
)
def test_a_first_fail_quotes_no_line_of_the_worked_answer(exercise, answer, notebook):
    result = check(exercise, answer, quiet=True)
    assert result.status == "failed", str(result)
    quoted = [piece for piece in _solution_code(notebook) if piece in result.hint]
    assert quoted == [], f"{result.hint!r} quotes {quoted}"
