# expect: pass a Checkpoint class with static methods, setitem halving, functools.partial loader, device context manager
# hint:
import functools

import torch


class Checkpoint:
    @staticmethod
    def halve(net, factor=0.5):
        with torch.no_grad():
            weight = net.get_submodule("0").weight
            weight[...] = weight * factor  # __setitem__ writes into the same storage

    @staticmethod
    def save(net, path):
        state = net.state_dict()
        torch.save(dict(state.items()), str(path))

    @staticmethod
    def load(make_net, path, device, *, strict):
        device = torch.device(device)
        state = torch.load(str(path), map_location=device, weights_only=True)
        with torch.random.fork_rng(devices=[]), torch.device(device):
            net = make_net()
        result = net.load_state_dict(state, strict=strict)
        assert not result.missing_keys
        return net


halve_first_layer = Checkpoint.halve
save_parameters = Checkpoint.save
load_parameters = functools.partial(Checkpoint.load, strict=True)

answer = (halve_first_layer, save_parameters, load_parameters)
