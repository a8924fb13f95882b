"""Helpers shared by the torchrun test suites (test_distributed.py, test_train_ddp.py)."""
