"""Matchmaking (issue 11): the queue, waves of pairing, online and buy-in tables.

The package itself imports nothing, so ``pairing`` stays importable without Django.
"""
