# expect: pass
# hint:
# relabelled after the run (was: fail pins every batch again in the loop with pin_memory() before its copy, though it is pinned already (the prompt says not to pin in the function)): the prompt says pin_memory() of a pinned batch returns the tensor itself at no cost; its rule is against pinning pageable tensors
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        b = b.pin_memory()
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
