# expect: pass
# hint: 
import io
from pathlib import Path

import torch


class _Checkpoint:
    """Three steps of a checkpoint round trip, as methods of one object."""

    def halve(self, net):
        with torch.no_grad():
            torch.mul(net[0].weight, 0.5, out=net[0].weight)

    def save(self, net, path):
        buffer = io.BytesIO()
        torch.save(net.state_dict(), buffer)
        Path(path).write_bytes(buffer.getvalue())

    def load(self, make_net, path, device):
        state = torch.load(
            io.BytesIO(Path(path).read_bytes()), map_location="cpu", weights_only=True
        )
        net = make_net().to(device)
        own = net.state_dict()  # detached views of the model's own tensors
        if own.keys() != state.keys():
            raise KeyError(f"checkpoint keys {sorted(state)} differ from {sorted(own)}")
        with torch.no_grad():
            for name, tensor in own.items():
                tensor.copy_(state[name])
        return net


_ckpt = _Checkpoint()
answer = (_ckpt.halve, _ckpt.save, _ckpt.load)
