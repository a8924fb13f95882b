# expect: fail default_stream() taken as the compute stream: its waits go to the default stream while the computes run on the current stream, right only when the caller's current stream is the default one (relabelled in round 4: the prompt puts the computes on the current stream, and the check now calls the function inside `with torch.cuda.stream(s)`)
# hint: default stream.*current stream
import torch
class Pipeline:
    def __call__(self, batches, compute, device):
        main = torch.cuda.default_stream(device)
        copier = torch.cuda.Stream(device=device)
        held, marks, results = [], [], []
        def fetch(i):
            with torch.cuda.stream(copier):
                held.append(batches[i].to(device=device, non_blocking=True))
            marker = torch.cuda.Event()
            marker.record(copier)
            marks.append(marker)
        if batches:
            fetch(0)
        for i in range(len(batches)):
            if i + 1 < len(batches):
                fetch(i + 1)
            main.wait_event(marks[i])
            results.append(compute(held[i]))
        copier.wait_stream(main)
        return results
answer = Pipeline()
