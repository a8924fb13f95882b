# expect: pass a small Job class with launch()/collect(); the product is torch.linalg.multi_dot([t, t]); all jobs launched before any is collected
# hint: 
import torch


class Job:
    def __init__(self, lane, t):
        self.lane, self.t, self.future = lane, t, None

    def launch(self):
        self.future = self.lane.submit(torch.linalg.multi_dot, [self.t, self.t])
        return self

    def collect(self):
        return self.future.result()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    jobs = [Job(lanes[0], x).launch(), Job(lanes[1], y).launch()]
    xx, yy = (job.collect() for job in jobs)
    return xx, yy


answer = run_concurrently
