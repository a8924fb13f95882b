# expect: pass a class holding A with einsum products, (X * X).sum().sqrt() norms and an in-place mul_ by the reciprocal; at-end joins with hstack
# hint: 
import torch


class _Power:
    def __init__(self, A):
        self.A = A
        self.X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)

    def step(self):
        self.X = torch.einsum("ij,jk->ik", self.A, self.X)
        norm = (self.X * self.X).sum().sqrt()
        self.X.mul_(norm.reciprocal())  # X is a fresh tensor each step: safe in place
        return norm


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    power = _Power(A)
    return [power.step().item() for _ in range(steps)]


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    power = _Power(A)
    kept = [power.step() for _ in range(steps)]
    return torch.hstack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
