# expect: fail pin_memory() is called on every batch (through an alias, torch.Tensor.pin_memory), which the prompt forbids
# hint: pin_memory|pinn?(ed|ing)? (in|inside) the (loop|function)|already pinned|pin
# WRONG: "to be safe" each batch is pinned before its copy. The batches are pinned already, so it
# does nothing here, but the prompt forbids any pin_memory() call in the function.
import torch

_page_lock = torch.Tensor.pin_memory


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = _page_lock(b).to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
