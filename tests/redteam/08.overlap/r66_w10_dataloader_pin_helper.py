# expect: fail calls pin_memory() through DataLoader's own helper, imported under another name, which the prompt forbids in the function
# hint: pin_memory|pin(ned|ning)? .{0,30}(call|again|loop|function)|already pinned
# Wrong: "do as DataLoader does": torch.utils.data's pin_memory helper calls batch.pin_memory()
# on each batch; the prompt says no pin_memory() call in the function (the batches are pinned).
import torch
from torch.utils.data._utils.pin_memory import pin_memory as as_page_locked


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        b = as_page_locked(b)  # a no-op for pinned batches, "just in case"
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
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


answer = pipelined
