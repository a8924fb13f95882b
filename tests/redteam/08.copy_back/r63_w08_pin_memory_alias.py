# expect: fail calls pin_memory() on the batches (through an alias of torch.Tensor.pin_memory), which the prompt forbids
# hint: pin_memory|pinn?ing|pinned already|already pinned
# Wrong: "pinned already: no pin_memory() in the function". Pinning a pinned tensor returns it at no
# cost, so values and timeline are right; the call is still there, made through another name.
import torch

_as_pinned = torch.Tensor.pin_memory


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        b = _as_pinned(b)  # "just in case" the loader did not pin it; free when it did
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending = (i, back_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
