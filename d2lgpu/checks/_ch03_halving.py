"""The 03.parameters checker's halving: ``halve_first_layer`` must halve ``net[0].weight``
in place (the same Parameter, its memory, dtype and device, still a trainable leaf) and
change nothing else: the other parameters, the gradients, the model's mode. Also on a
float64 model (values float32 cannot hold), twice on a model whose first layer is frozen, and
on the meta device, which stands for a GPU."""

from __future__ import annotations

import torch

from ._ch03_meta_watch import Origins
from ._ch03_networks import defaults_kept, seeded_net
from ._kit import KnownError, call_answer
from ._util import CheckFailed

__all__ = ["check_halve"]

_IN_PLACE = [
    KnownError(
        RuntimeError,
        ("leaf Variable", "in-place"),
        "autograd refused an in-place change of a parameter: wrap it in "
        "`with torch.no_grad():` (parameters are leaves that require grad)",
    )
]


def check_halve(halve, device, passed):
    """``halve_first_layer`` on the model on ``device``, then on a float64 model and on the meta
    device (:func:`_check_halve_elsewhere`): the weight halved in place and nothing else."""
    net = seeded_net(0).to(device)
    weight = net[0].weight
    before = {k: v.detach().clone() for k, v in net.state_dict().items()}
    for p in net.parameters():  # gradients being accumulated (over micro-batches, say)
        p.grad = torch.full_like(p, 0.25)
    memory, modes = weight.data_ptr(), [m.training for m in net.modules()]
    with defaults_kept("halve_first_layer"):
        call_answer(halve, net, known=_IN_PLACE)
    if [m.training for m in net.modules()] != modes:
        raise CheckFailed(
            "halve_first_layer left the model in another mode (net.eval() or net.train(False)): "
            "only change the weight. The caller's training would go on with dropout off and "
            "BatchNorm's statistics frozen"
        )
    if net[0].weight is not weight:
        raise CheckFailed(
            "net[0].weight is now a different Parameter object: an optimizer built before "
            "still updates the old one. Change the values of the Parameter itself, with an "
            "in-place operation (its name ends in _, as mul_), under torch.no_grad()"
        )
    if weight.device != torch.device(device):
        raise CheckFailed(
            f"net[0].weight moved to {weight.device}: keep the model on its device and "
            "change its parameters there"
        )
    if weight.dtype != before["0.weight"].dtype:
        raise CheckFailed(
            f"net[0].weight is now {str(weight.dtype).removeprefix('torch.')}, not float32: "
            ".half() converts to float16 (half precision), it does not halve the values. "
            "Multiply the weight by 0.5 in place (mul_) under torch.no_grad()"
        )
    if weight.data_ptr() != memory:
        raise CheckFailed(
            "net[0].weight is the same Parameter, but its values are in new memory (its "
            "data_ptr() changed): assigning weight.data = (a new tensor) swaps in a copy "
            "instead of changing the values in place, and whatever still holds the old memory "
            "(a view of the weight, an optimizer's flat buffer) no longer sees them. Multiply "
            "in place, with an operation whose name ends in _ (as mul_), under torch.no_grad()"
        )
    if not weight.requires_grad:
        raise CheckFailed(
            "net[0].weight.requires_grad is now False: the layer is frozen, and training "
            "would no longer update it. requires_grad_(False) is not how to keep autograd "
            "from recording a change: make the change under torch.no_grad(), which leaves "
            "requires_grad as it was"
        )
    if weight.grad_fn is not None:
        raise CheckFailed(
            "net[0].weight is no longer a trainable leaf (autograd recorded the change: it "
            "has a grad_fn): make the change under torch.no_grad(), so autograd does not "
            "record it"
        )
    if not torch.allclose(weight.detach().cpu(), before["0.weight"].cpu() * 0.5):
        if torch.equal(weight.detach().cpu(), before["0.weight"].cpu()):
            raise CheckFailed(
                "net[0].weight is unchanged: an operation without a trailing _ (mul, *) makes "
                "a new tensor, which is thrown away unless you keep it, and a copy (.cpu(), "
                ".clone(), copy.deepcopy(net)) is another tensor, whose change the net never "
                "sees. Halve the weight of the net you are given in place (mul_, *=) under "
                "torch.no_grad()"
            )
        raise CheckFailed("net[0].weight should be exactly half of what it was")
    changed = [
        k for k, v in net.state_dict().items() if k != "0.weight" and not torch.equal(v, before[k])
    ]
    if changed:
        raise CheckFailed(f"only net[0].weight should change, but {', '.join(changed)} did too")
    if not all(p.grad is not None and bool((p.grad == 0.25).all()) for p in net.parameters()):
        raise CheckFailed(
            "halve_first_layer changed the model's gradients (.grad cleared or zeroed, as "
            "net.zero_grad() does): only the weight's values should change. Gradients being "
            "accumulated over micro-batches would be lost; clearing them is the training "
            "loop's job (opt.zero_grad() before the next backward)"
        )
    _check_halve_elsewhere(halve)
    passed.append(
        "halve_first_layer halves net[0].weight in place: same Parameter, same device, "
        "still a leaf, nothing else changed"
    )


def _check_halve_elsewhere(halve) -> None:
    """On a float64 model, and on the meta device (standing for a GPU)."""
    net = seeded_net(0).double()
    weight = net[0].weight
    assert isinstance(weight, torch.Tensor)
    with torch.no_grad():  # values float32 cannot hold: a round trip through it rounds them
        weight.add_(
            torch.linspace(1e-12, 1e-10, weight.numel(), dtype=torch.float64).view_as(weight)
        )
    before = weight.detach().clone()
    with defaults_kept("halve_first_layer"):
        call_answer(halve, net, known=_IN_PLACE)
    if torch.allclose(weight.detach(), before * 0.5) and not torch.equal(weight, before * 0.5):
        raise CheckFailed(
            "net[0].weight of a float64 model (net.double()) was halved, but rounded on the way "
            "to float32's precision (w.float(), or a float32 factor tensor): its float64 "
            "digits are lost. Halve the Parameter in its own dtype (net[0].weight.mul_(0.5) "
            "under torch.no_grad())"
        )
    if not torch.equal(weight.detach(), before * 0.5):
        raise CheckFailed(
            "net[0].weight of a float64 model (net.double()) was not halved: .float(), "
            ".to(dtype) or .type() return a copy when the dtype differs, so an in-place "
            "change of it is lost. Halve the Parameter itself, in its own dtype "
            "(net[0].weight.mul_(0.5) under torch.no_grad())"
        )
    _check_halve_again(halve)
    _check_halve_transposed(halve)
    net = seeded_net(0).to("meta")
    with defaults_kept("halve_first_layer"), Origins([]) as origins:
        call_answer(halve, net, known=_IN_PLACE)
    if origins.mixed is not None:
        op, _, where = origins.mixed
        raise CheckFailed(
            f"halve_first_layer mixes devices: {op} got the weight and a tensor on {where} "
            "(checked with the model on the meta device, which stands for a GPU, where this "
            "raises a device-mismatch error). A factor made on the CPU (torch.full(w.shape, "
            "0.5), torch.tensor of several values) is one: multiply by the number 0.5, or make "
            "the factor on the weight's device (torch.full_like(w, 0.5))"
        )


def _check_halve_transposed(halve) -> None:
    """On a model whose first weight is stored transposed (not contiguous), as a weight tied
    to another layer's transpose is: halved all the same."""
    net = seeded_net(0)
    layer = net[0]
    assert isinstance(layer, torch.nn.Linear)
    layer.weight = torch.nn.Parameter(layer.weight.detach().t().contiguous().t())
    weight = layer.weight
    before = weight.detach().clone()
    with defaults_kept("halve_first_layer"):
        call_answer(halve, net, known=_IN_PLACE)
    if net[0].weight is weight and not torch.equal(weight.detach(), before * 0.5):
        raise CheckFailed(
            "given a first layer whose weight is not contiguous (stored transposed, as a weight "
            "tied to another layer's transpose is), halve_first_layer did not halve it: "
            "reshape(-1), flatten() or contiguous() of such a tensor is a copy, and halving "
            "the copy leaves the weight as it was. Halve the Parameter itself "
            "(net[0].weight.mul_(0.5) under torch.no_grad())"
        )


def _check_halve_again(halve) -> None:
    """Twice on one model whose first layer is frozen: a quarter, and still frozen."""
    net = seeded_net(0)
    weight = net[0].weight
    assert isinstance(weight, torch.Tensor)
    weight.requires_grad_(False)  # a frozen layer, fine-tuning the rest
    before = weight.detach().clone()
    for caller in (torch.enable_grad, torch.no_grad):  # the second time from an evaluation
        with caller(), defaults_kept("halve_first_layer (called under torch.no_grad())"):
            call_answer(halve, net, known=_IN_PLACE)
    if weight.requires_grad:
        raise CheckFailed(
            "given a model whose first layer is frozen (net[0].weight.requires_grad False), "
            "halve_first_layer left it trainable (requires_grad True): turning requires_grad "
            "off and on around the change sets it, whatever it was. Make the change under "
            "torch.no_grad(), which leaves requires_grad as the caller had it"
        )
    if torch.equal(weight, before * 0.5):
        raise CheckFailed(
            "called twice on the same model, halve_first_layer halved net[0].weight only the "
            "first time (a quarter of it is due): it keeps state between calls (a set of the "
            "models or ids it has seen), which also skips a new model that reuses a freed id. "
            "Halve the weight you are given on every call"
        )
    if not torch.equal(weight, before * 0.25):
        raise CheckFailed(
            "called twice on the same model (its first layer frozen), halve_first_layer did "
            "not leave a quarter of net[0].weight: halve the weight itself, in place, each call"
        )
