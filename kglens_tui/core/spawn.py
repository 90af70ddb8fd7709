"""Starting child processes from inside a terminal UI."""

from __future__ import annotations

import sys
import threading

_tracker_lock = threading.Lock()


def start_resource_tracker() -> None:
    """multiprocessing hands its helper process our stderr; a UI that replaced sys.stderr (as
    Textual does) has no usable file descriptor there, so start the helper on the real one.
    Call before starting a child process."""
    from multiprocessing import resource_tracker

    with _tracker_lock:
        saved = sys.stderr
        sys.stderr = sys.__stderr__
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = saved
