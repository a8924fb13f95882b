# expect: fail all batches concatenated on the host and sent in one copy: compute 0 waits for every batch's copy, nothing overlaps
# hint: one copy|single copy|concatenat|torch\.cat|every batch
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    cur = torch.cuda.current_stream(device)
    sizes = [len(b) for b in batches]
    with torch.cuda.stream(side):
        whole = torch.cat(batches).pin_memory().to(device, non_blocking=True)  # one big transfer
        done = side.record_event()
    cur.wait_event(done)
    whole.record_stream(cur)
    return [compute(x) for x in torch.split(whole, sizes)]
