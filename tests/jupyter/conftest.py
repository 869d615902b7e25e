"""Shared helpers for the gcalc Jupyter tests: a started kernel and a client."""
import os
import queue

import pytest
from jupyter_client.manager import start_new_kernel

KERNEL = os.environ.get("GCALC_KERNEL_NAME", "gcalc")
TIMEOUT = 20


@pytest.fixture()
def kernel():
    km, kc = start_new_kernel(kernel_name=KERNEL)
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def run(kc, code, timeout=TIMEOUT, **kw):
    """Execute code; the reply and every IOPub message up to idle."""
    msg_id = kc.execute(code, **kw)
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    msgs = iopub_until_idle(kc, msg_id, timeout)
    return reply, msgs


def iopub_until_idle(kc, msg_id, timeout=TIMEOUT):
    msgs = []
    while True:
        m = kc.get_iopub_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return msgs
        msgs.append(m)


def stdout_of(msgs):
    return "".join(
        m["content"]["text"]
        for m in msgs
        if m["msg_type"] == "stream" and m["content"]["name"] == "stdout"
    )


def result_of(msgs):
    for m in msgs:
        if m["msg_type"] == "execute_result":
            return m["content"]["data"]["text/plain"]
    return None


def drain(q_get):
    while True:
        try:
            q_get(timeout=0.2)
        except queue.Empty:
            return
