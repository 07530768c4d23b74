"""The one place each library's private internals are reached: a module per library, named for
it, each pinned in pyproject.toml and guarded by a test in tests/adapters/."""
