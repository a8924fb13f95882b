# expect: fail starts from X = A, skipping the first step's product (A @ I): the prompt starts from X = I and multiplies at every step, and each step's product is what the log times
# hint: one fewer|skips the first|identity
import torch


class NormLogger:
    def __init__(self, A):
        self.A = A

    def steps(self, n):
        """Yields the norm tensor of each step; X starts as A @ I = A."""
        X = self.A
        for k in range(n):
            if k:
                X = self.A @ X
            norm = torch.linalg.vector_norm(X)  # over all entries: the Frobenius norm
            yield norm
            X = X / norm  # a new tensor: A itself is never changed


def log_norms_per_step(A, steps):
    return [norm.item() for norm in NormLogger(A).steps(steps)]


def log_norms_at_end(A, steps):
    return torch.cat([norm.reshape(1) for norm in NormLogger(A).steps(steps)]).tolist()


answer = (log_norms_per_step, log_norms_at_end)
