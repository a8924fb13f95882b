"""d2lgpu.training: it learns, it reports, it syncs once per epoch, it refuses bad input."""

import copy
import math

import pytest
import torch
from torch import nn

from d2lgpu import training
from d2lgpu.data import load_fashion_mnist
from d2lgpu.models import MLP, SmallCNN

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


@pytest.fixture(scope="module")
def loaders():
    return load_fashion_mnist(32, synthetic=True, train_size=2000, test_size=400)


def tiny_batches(n_batches=4, batch_size=8):
    gen = torch.Generator().manual_seed(0)
    return [
        (torch.rand(batch_size, 1, 28, 28, generator=gen), torch.randint(0, 10, (batch_size,)))
        for _ in range(n_batches)
    ]


def test_train_small_cnn_learns_well_above_chance(loaders):
    train_iter, test_iter = loaders
    torch.manual_seed(0)
    history = training.train(
        SmallCNN(), train_iter, test_iter, num_epochs=2, lr=0.1, device="cpu", progress=False
    )
    assert len(history.train_loss) == len(history.train_acc) == 2
    assert len(history.test_acc) == len(history.epoch_seconds) == 2
    assert history.test_acc[-1] > 0.6  # chance is 0.1
    assert history.train_loss[-1] < history.train_loss[0]
    assert all(s > 0 for s in history.epoch_seconds)
    assert (history.device, history.amp_dtype) == ("cpu", "none")
    summary = history.summary()
    assert summary.startswith("2 epochs on cpu, amp none") and "test acc" in summary


def test_adam_learns_in_one_epoch(loaders):
    train_iter, test_iter = loaders
    torch.manual_seed(0)
    history = training.train(
        SmallCNN(),
        train_iter,
        test_iter,
        num_epochs=1,
        lr=1e-3,
        device="cpu",
        optimizer="adam",
        progress=False,
    )
    assert history.test_acc[0] > 0.6


def test_evaluate_accuracy_counts_exactly_and_restores_the_mode():
    class AlwaysZero(nn.Module):
        def __init__(self):
            super().__init__()
            self.dummy = nn.Parameter(torch.zeros(()))

        def forward(self, x):
            logits = torch.zeros(x.shape[0], 10)
            logits[:, 0] = 1.0
            return logits

    y = torch.tensor([0, 0, 0, 1, 2, 0, 5, 9, 0, 0])  # six zeros
    batches = [(torch.zeros(4, 1), y[:4]), (torch.zeros(6, 1), y[4:])]
    net = AlwaysZero().train()
    assert training.evaluate_accuracy(net, batches, "cpu") == 0.6
    assert net.training
    with pytest.raises(ValueError, match="data_iter yielded no batches"):
        training.evaluate_accuracy(net, [], "cpu")


def test_metrics_are_read_once_per_epoch_not_per_step(monkeypatch):
    # Every .item() is a CPU-GPU sync point; the loop must not do one per batch.
    calls = []
    original = torch.Tensor.item
    monkeypatch.setattr(torch.Tensor, "item", lambda t: calls.append(1) or original(t))
    batches = tiny_batches(n_batches=6)
    training.train(MLP(), batches, None, num_epochs=2, lr=0.1, device="cpu", progress=False)
    assert len(calls) == 2 * 2  # loss and accuracy, per epoch
    calls.clear()
    training.evaluate_accuracy(MLP(), batches, "cpu")
    assert len(calls) == 1


def test_max_batches_limits_each_epoch():
    seen = []

    class Counting:
        def __len__(self):
            return 10

        def __iter__(self):
            for X, y in tiny_batches(10):
                seen.append(1)
                yield X, y

    history = training.train(
        MLP(), Counting(), num_epochs=2, lr=0.1, device="cpu", max_batches=3, progress=False
    )
    assert len(seen) == 2 * 3
    assert history.test_acc == [] and len(history.train_acc) == 2


@pytest.mark.parametrize(
    "amp_dtype, name", [(torch.bfloat16, "bfloat16"), (torch.float16, "float16")]
)
def test_mixed_precision_runs_on_cpu(amp_dtype, name):
    # float16 on the CPU runs without a GradScaler (documented); bfloat16 never needs one.
    history = training.train(
        MLP(),
        tiny_batches(),
        tiny_batches(1),
        num_epochs=1,
        lr=0.1,
        device=torch.device("cpu"),
        amp_dtype=amp_dtype,
        progress=False,
    )
    assert history.amp_dtype == name
    assert math.isfinite(history.train_loss[0]) and 0 <= history.test_acc[0] <= 1


def test_progress_bar_is_shown_or_hidden(capsys):
    training.train(MLP(), tiny_batches(), num_epochs=1, lr=0.1, device="cpu", progress=True)
    err = capsys.readouterr().err
    assert "epoch 1/1" in err and "train_acc=" in err
    training.train(MLP(), tiny_batches(), num_epochs=1, lr=0.1, device="cpu", progress=False)
    assert capsys.readouterr().err == ""


def test_one_epoch_is_exactly_plain_sgd_on_cross_entropy():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Flatten(), nn.Linear(4, 3))
    ref = copy.deepcopy(net)
    gen = torch.Generator().manual_seed(1)
    # Batches of unequal size: the epoch's loss weighs each by its examples.
    batches = [
        (torch.randn(n, 1, 4, generator=gen), torch.randint(0, 3, (n,), generator=gen))
        for n in (5, 3)
    ]
    history = training.train(net, batches, num_epochs=1, lr=0.5, device="cpu", progress=False)
    opt = torch.optim.SGD(ref.parameters(), lr=0.5)
    loss_sum, correct = 0.0, 0
    for X, y in batches:
        out = ref(X)
        loss = nn.functional.cross_entropy(out, y)
        loss_sum += loss.item() * len(y)
        correct += (out.argmax(dim=1) == y).sum().item()
        opt.zero_grad()
        loss.backward()
        opt.step()
    for p, q in zip(net.parameters(), ref.parameters(), strict=True):
        torch.testing.assert_close(p, q)
    assert history.train_loss[0] == pytest.approx(loss_sum / 8)
    assert history.train_acc[0] == correct / 8


def test_evaluation_runs_in_eval_mode_without_autograd():
    class ModeDependent(nn.Module):
        """Predicts class 0 in eval mode, class 1 in training mode; records the grad mode."""

        def __init__(self):
            super().__init__()
            self.seen = []

        def forward(self, x):
            self.seen.append((self.training, torch.is_inference_mode_enabled()))
            logits = torch.zeros(x.shape[0], 10)
            logits[:, 1 if self.training else 0] = 1.0
            return logits

    net = ModeDependent().train()
    y = torch.tensor([0, 0, 0, 1])
    assert training.evaluate_accuracy(net, [(torch.zeros(4, 1), y)], "cpu") == 0.75
    assert net.seen == [(False, True)] and net.training
    assert training.evaluate_accuracy(net.eval(), [(torch.zeros(4, 1), y)], "cpu") == 0.75
    assert not net.training  # the mode it was in, restored


def test_the_progress_bar_counts_the_batches_of_an_epoch(capsys):
    training.train(MLP(), tiny_batches(5), num_epochs=1, lr=0.1, device="cpu", max_batches=3)
    assert "3/3" in capsys.readouterr().err
    training.train(MLP(), tiny_batches(2), num_epochs=1, lr=0.1, device="cpu", max_batches=3)
    assert "2/2" in capsys.readouterr().err


def test_summary_of_several_epochs_leaves_the_first_out_of_the_mean():
    h = training.History(
        [3.0, 2.0, 1.0],
        [0.1, 0.2, 0.3],
        [0.5, 0.6, 0.7],
        [5.0, 1.0, 2.0],
        device="cpu",
        amp_dtype="none",
    )
    assert h.summary() == (
        "3 epochs on cpu, amp none: loss 1.000, train acc 0.300, test acc 0.700, "
        "1.50 s/epoch (first epoch 5.00 s)"
    )


def test_history_keeps_the_device_as_given(loaders):
    history = training.train(
        MLP(), tiny_batches(1), num_epochs=1, lr=0.1, device=torch.device("cpu"), progress=False
    )
    assert history.device == "cpu"


def test_summary_of_one_and_of_no_epochs():
    h = training.History([1.0], [0.5], [], [2.0], device="cuda:0", amp_dtype="bfloat16")
    expected = "1 epoch on cuda:0, amp bfloat16: loss 1.000, train acc 0.500, 2.00 s/epoch"
    assert h.summary() == expected
    assert "no epochs" in training.History().summary()
    two = training.History([1.0, 0.5], [0.5, 0.6], [], [3.0, 1.0], device="cpu", amp_dtype="none")
    assert two.summary().endswith("1.00 s/epoch (first epoch 3.00 s)")  # from 2 epochs on


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"num_epochs": 0}, ValueError, "num_epochs must be an int >= 1"),
        ({"lr": 0}, ValueError, "lr must be a number > 0"),
        ({"lr": -0.1}, ValueError, "lr must be a number > 0"),
        ({"amp_dtype": torch.float32}, ValueError, "amp_dtype must be None, torch.float16"),
        ({"optimizer": "rmsprop"}, ValueError, "optimizer must be one of"),
        ({"max_batches": 0}, ValueError, "max_batches must be an int >= 1 or None"),
        ({"device": 0}, TypeError, "device must be a str or torch.device"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, message):
    args = {"num_epochs": 1, "lr": 0.1, "device": "cpu", "progress": False, **kwargs}
    with pytest.raises(error, match=message):
        training.train(MLP(), tiny_batches(), **args)


def test_bad_net_and_empty_data():
    with pytest.raises(TypeError, match="net must be a torch.nn.Module"):
        training.train("net", tiny_batches(), num_epochs=1, lr=0.1, device="cpu")
    with pytest.raises(ValueError, match="train_iter yielded no batches"):
        training.train(MLP(), [], num_epochs=1, lr=0.1, device="cpu", progress=False)


@pytest.mark.cuda
@requires_cuda
@pytest.mark.parametrize("amp_dtype", [None, torch.float16, torch.bfloat16])
def test_train_on_cuda(loaders, amp_dtype):
    train_iter, test_iter = loaders
    torch.manual_seed(0)
    history = training.train(
        SmallCNN(),
        train_iter,
        test_iter,
        num_epochs=2,
        lr=0.1,
        device="cuda",
        amp_dtype=amp_dtype,
        progress=False,
    )
    assert history.device == "cuda"
    assert history.test_acc[-1] > 0.6


def test_the_bar_of_an_iterable_without_len_counts_to_max_batches(capsys):
    class NoLen:
        def __iter__(self):
            return iter(tiny_batches(5))

    training.train(MLP(), NoLen(), num_epochs=1, lr=0.1, device="cpu", max_batches=3)
    err = capsys.readouterr().err
    assert "3/3" in err and "train_acc=" in err
    training.train(MLP(), NoLen(), tiny_batches(1), num_epochs=1, lr=0.1, device="cpu")
    err = capsys.readouterr().err
    assert "5it" in err and "test_acc=" in err  # no total to count to; the bar just counts


def test_a_net_handed_over_in_eval_mode_is_trained_in_training_mode():
    class Recording(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(28 * 28, 10)
            self.modes = []

        def forward(self, x):
            self.modes.append(self.training)
            return self.linear(x.flatten(1))

    net = Recording().eval()
    training.train(
        net, tiny_batches(2), tiny_batches(1), num_epochs=2, lr=0.1, device="cpu", progress=False
    )
    assert net.modes == [True, True, False] * 2  # two training batches, then the evaluation


def test_float16_loss_scaling_is_for_cuda_only(monkeypatch):
    enabled = []
    real = torch.amp.GradScaler

    def recording(device, **kwargs):
        enabled.append((device, kwargs["enabled"]))
        return real(device, **kwargs)

    monkeypatch.setattr(torch.amp, "GradScaler", recording)
    for amp_dtype in (torch.float16, torch.bfloat16, None):
        training.train(
            MLP(), tiny_batches(1), num_epochs=1, lr=0.1, device="cpu", amp_dtype=amp_dtype,
            progress=False,
        )  # fmt: skip
    assert enabled == [("cpu", False)] * 3
