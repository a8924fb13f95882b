# expect: pass static methods of a class; in-place *= under no_grad; map_location as a lambda
# hint: 
import os

import torch


class Checkpoint:
    @staticmethod
    def halve(net):
        with torch.no_grad():
            net[0].weight *= 0.5  # __imul__ returns the same Parameter

    @staticmethod
    def save(net, path):
        torch.save(net.state_dict(), os.fspath(path))

    @staticmethod
    def load(make_net, path, device):
        state = torch.load(
            os.fspath(path), map_location=lambda storage, location: storage, weights_only=True
        )
        model = make_net()
        missing, unexpected = model.load_state_dict(state, strict=True)
        assert not missing and not unexpected
        return model.to(device=device)


halve_first_layer = Checkpoint.halve
save_parameters = Checkpoint.save
load_parameters = Checkpoint.load


answer = (halve_first_layer, save_parameters, load_parameters)
