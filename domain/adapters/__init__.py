"""Adapters: the one place each third-party library's undocumented parts are used."""
