# expect: fail pins every batch again in the loop with pin_memory(), though it is pinned already (the prompt says not to call pin_memory() in the function)
# hint: pin_memory\(\) \d+ times.*not to pin
# relabelled twice: first right (pin_memory() of a pinned batch returns it at no cost), then wrong again once the prompt named any pin_memory() call as refused: two red-team rounds read "Do not pin in the function" that way
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
