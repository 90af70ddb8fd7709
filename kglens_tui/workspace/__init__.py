"""Workspace housekeeping over KGs and runs together: delete a KG or runs with everything that
refers to them, rename a KG (`kglens kg rm`, `kglens kg rename`, `kglens runs rm`)."""
