# expect: fail calls the DataLoader's own pinning helper (torch.utils.data._utils.pin_memory.pin_memory) on every batch in the loop: it calls pin_memory(), which the prompt forbids in the function (a host copy for pageable batches, nothing for pinned ones)
# hint: pin_memory|pinn?(ing|ed)? (in|inside) the (loop|function)|already pinned|_utils
import torch
from torch.utils.data._utils.pin_memory import pin_memory as dataloader_pin


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        b = dataloader_pin(b)  # what DataLoader(pin_memory=True) does: a no-op when pinned
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
