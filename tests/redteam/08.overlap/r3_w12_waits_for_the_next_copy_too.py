# expect: fail the event each compute waits for is recorded after the next copy: over-waiting, nothing overlaps
# hint: waits for the copy of batch 1 too
import torch
class Pipeline:
    def __call__(self, batches, compute, device):
        main = torch.cuda.default_stream(device)
        copier = torch.cuda.Stream(device=device)
        held, results = [], []
        with torch.cuda.stream(copier):
            if batches:
                held.append(batches[0].to(device=device, non_blocking=True))
        for i in range(len(batches)):
            with torch.cuda.stream(copier):
                if i + 1 < len(batches):
                    held.append(batches[i + 1].to(device=device, non_blocking=True))
            marker = torch.cuda.Event()
            marker.record(copier)
            main.wait_event(marker)
            results.append(compute(held[i]))
        copier.wait_stream(main)
        return results
answer = Pipeline()
