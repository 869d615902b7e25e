"""gcalc kernel behaviour through jupyter_client: interrupts keep state,
stdin round trip, restart, signatures, garbage input, and the rest of the
protocol the conformance suite does not reach."""
import datetime
import hashlib
import hmac
import json
import os
import random
import time
import uuid

import zmq
from conftest import TIMEOUT, drain, iopub_until_idle, result_of, run, stdout_of


def test_interrupt_keeps_state(kernel):
    km, kc = kernel
    reply, _ = run(kc, "keep = 41")
    assert reply["content"]["status"] == "ok"
    msg_id = kc.execute("k = 0\nwhile true { k = k + 1 }")
    time.sleep(0.5)
    # heartbeats and control are answered while the cell runs
    assert kc.hb_channel.is_beating()
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "error"
    iopub_until_idle(kc, msg_id)
    reply, msgs = run(kc, "print(keep)\nk")
    assert reply["content"]["status"] == "ok"
    assert stdout_of(msgs).strip() == "41"
    assert int(result_of(msgs)) > 0


def test_sigint_interrupts(kernel):
    km, kc = kernel
    msg_id = kc.execute("n = 0\nwhile true { n += 1 }")
    time.sleep(0.5)
    km.signal_kernel(2)
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["status"] == "error"
    iopub_until_idle(kc, msg_id)
    reply, msgs = run(kc, "n")
    assert int(result_of(msgs)) > 0


def test_stdin_round_trip(kernel):
    km, kc = kernel
    msg_id = kc.execute('x = input("name? ")', allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    assert req["msg_type"] == "input_request"
    assert req["content"]["prompt"] == "name? "
    kc.input("Ada")
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "ok"
    iopub_until_idle(kc, msg_id)
    _, msgs = run(kc, "print(x)")
    assert stdout_of(msgs).strip() == "Ada"


def test_input_without_stdin_is_an_error(kernel):
    km, kc = kernel
    reply, _ = run(kc, 'input("no? ")', allow_stdin=False)
    assert reply["content"]["status"] == "error"


def test_restart(kernel):
    km, kc = kernel
    run(kc, "before = 1")
    km.restart_kernel()
    kc.wait_for_ready(timeout=TIMEOUT)
    drain(kc.get_iopub_msg)
    reply, msgs = run(kc, "before")
    assert reply["content"]["status"] == "error"
    reply, msgs = run(kc, "5")
    assert result_of(msgs) == "5"


def _raw_shell(km, username, date):
    """A DEALER socket on the kernel's shell port and an execute_request
    header of `username` dated `date`."""
    info = km.get_connection_info()
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(f"{info['transport']}://{info['ip']}:{info['shell_port']}")
    header = {
        "msg_id": uuid.uuid4().hex,
        "username": username,
        "session": uuid.uuid4().hex,
        "date": date,
        "msg_type": "execute_request",
        "version": "5.3",
    }
    return sock, header


def test_bad_signature_is_not_executed(kernel):
    km, kc = kernel
    sock, header = _raw_shell(km, "mallory", "2024-01-01T00:00:00Z")
    content = {"code": "stolen = 1", "silent": False}
    parts = [json.dumps(p).encode() for p in (header, {}, {}, content)]
    sock.send_multipart([b"<IDS|MSG>", b"0" * 64] + parts)
    # no reply comes for a dropped message
    assert sock.poll(1000) == 0
    sock.close()
    reply, msgs = run(kc, "stolen")
    assert reply["content"]["status"] == "error"
    # a correctly signed message on the same socket still works
    reply, msgs = run(kc, "3")
    assert result_of(msgs) == "3"


def test_replayed_message_is_not_executed(kernel):
    """A byte-identical signed execute_request sent twice runs once (as
    ipykernel's digest history does)."""
    km, kc = kernel
    run(kc, "replays = 0")
    key = km.get_connection_info()["key"]
    key = key.encode() if isinstance(key, str) else key
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    sock, header = _raw_shell(km, "eve", now)
    content = {"code": "replays = replays + 1", "silent": False}
    parts = [json.dumps(p).encode() for p in (header, {}, {}, content)]
    sig = hmac.new(key, b"".join(parts), hashlib.sha256).hexdigest().encode()
    frames = [b"<IDS|MSG>", sig] + parts
    sock.send_multipart(frames)
    assert sock.poll(TIMEOUT * 1000), "the signed message got no reply"
    first = sock.recv_multipart()
    assert json.loads(first[first.index(b"<IDS|MSG>") + 5])["status"] == "ok"
    sock.send_multipart(frames)
    # no reply comes for a dropped replay
    assert sock.poll(1000) == 0
    sock.close()
    reply, msgs = run(kc, "replays")
    assert result_of(msgs) == "1"


def test_garbage_never_kills_the_kernel(kernel):
    km, kc = kernel
    rng = random.Random(5)
    samples = [
        bytes(rng.randrange(256) for _ in range(400)).decode("latin-1"),
        "(" * 20000 + "1" + ")" * 20000,
        "[" * 5000,
        '"unterminated',
        '"""never closed',
        "fn f(",
        "\x00\x01\x02",
        "x = 1 +",
        "}}}}",
        "print(" * 3000,
        "fn r(n) = r(n + 1)\nr(0)",
    ]
    for code in samples:
        reply, msgs = run(kc, code, timeout=60)
        assert reply["content"]["status"] in ("ok", "error"), code[:40]
        assert km.is_alive()
    reply, msgs = run(kc, "8")
    assert result_of(msgs) == "8"


def test_stop_on_error_aborts_queued(kernel):
    km, kc = kernel
    a = kc.execute("no_such_thing")
    b = kc.execute("aborted_var = 1")
    replies = {}
    while len(replies) < 2:
        r = kc.get_shell_msg(timeout=TIMEOUT)
        replies[r["parent_header"]["msg_id"]] = r["content"]["status"]
    assert replies[a] == "error"
    assert replies[b] == "aborted"
    drain(kc.get_iopub_msg)
    reply, _ = run(kc, "aborted_var")
    assert reply["content"]["status"] == "error"


def test_silent_and_user_expressions(kernel):
    km, kc = kernel
    reply, msgs = run(kc, "q = 12", user_expressions={"a": "q", "b": "nope"})
    ue = reply["content"]["user_expressions"]
    assert ue["a"]["status"] == "ok" and ue["a"]["data"]["text/plain"] == "12"
    assert ue["b"]["status"] == "error"
    reply, msgs = run(kc, "q", silent=True)
    assert reply["content"]["status"] == "ok"
    assert result_of(msgs) is None
    assert not any(m["msg_type"] == "execute_input" for m in msgs)
    count = reply["content"]["execution_count"]
    reply, _ = run(kc, "q", store_history=False)
    assert reply["content"]["execution_count"] == count


def test_execute_counts_and_error_traceback(kernel):
    km, kc = kernel
    r1, _ = run(kc, "1")
    r2, _ = run(kc, "2")
    assert r2["content"]["execution_count"] == r1["content"]["execution_count"] + 1
    reply, msgs = run(kc, "y = 1\nprint(zzz_missing)")
    errs = [m for m in msgs if m["msg_type"] == "error"]
    assert len(errs) == 1
    tb = "\n".join(errs[0]["content"]["traceback"])
    assert "zzz_missing" in tb and "^" in tb
    assert errs[0]["content"]["ename"]


def test_complete_counts_code_points(kernel):
    km, kc = kernel
    run(kc, "emile_value = 3")
    code = 's = "été"; emile_v'

    kc.complete(code, len(code))
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert r["matches"] == ["emile_value"]
    assert r["cursor_end"] == len(code)
    assert r["cursor_start"] == len(code) - len("emile_v")


def test_inspect_variable_and_is_complete_indent(kernel):
    km, kc = kernel
    run(kc, 'who = "me"')
    kc.inspect("who", 3)
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert r["found"] and "who" in r["data"]["text/plain"]
    kc.inspect("no_such_name_", 5)
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert r["status"] == "ok" and not r["found"]
    kc.is_complete("fn f(a) {")
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert r["status"] == "incomplete" and r["indent"] == "    "


def test_comms_and_unknown_requests(kernel):
    km, kc = kernel
    msg = kc.session.msg("comm_info_request", {})
    kc.shell_channel.send(msg)
    r = kc.get_shell_msg(timeout=TIMEOUT)
    assert r["msg_type"] == "comm_info_reply" and r["content"]["comms"] == {}
    drain(kc.get_iopub_msg)
    msg = kc.session.msg("comm_open", {"comm_id": "c1", "target_name": "nope", "data": {}})
    kc.shell_channel.send(msg)
    closed = False
    deadline = time.time() + TIMEOUT
    while time.time() < deadline and not closed:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        closed = m["msg_type"] == "comm_close" and m["content"]["comm_id"] == "c1"
    assert closed
    msg = kc.session.msg("frobnicate_request", {})
    kc.shell_channel.send(msg)
    r = kc.get_shell_msg(timeout=TIMEOUT)
    assert r["msg_type"] == "frobnicate_reply"
    assert r["content"]["status"] == "error"
    msg = kc.session.msg("debug_request", {})
    kc.control_channel.send(msg)
    r = kc.control_channel.get_msg(timeout=TIMEOUT)
    assert r["msg_type"] == "debug_reply" and r["content"]["status"] == "error"
    msg = kc.session.msg("kernel_info_request", {})
    kc.control_channel.send(msg)
    r = kc.control_channel.get_msg(timeout=TIMEOUT)
    assert r["content"]["language_info"]["name"] == "gcalc"


def test_progress_updates_one_display(kernel):
    km, kc = kernel
    reply, msgs = run(kc, "for i in progress(range(5)) { i }")
    assert reply["content"]["status"] == "ok"
    firsts = [m for m in msgs if m["msg_type"] == "display_data"]
    updates = [m for m in msgs if m["msg_type"] == "update_display_data"]
    assert len(firsts) == 1
    did = firsts[0]["content"]["transient"]["display_id"]
    assert all(u["content"]["transient"]["display_id"] == did for u in updates)


def test_history_search_unique_and_range(kernel):
    km, kc = kernel
    for code in ("hv = 1", "hv", "hv = 1"):
        run(kc, code)
    kc.history(hist_access_type="search", pattern="hv =*", unique=True)
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert [h[2] for h in r["history"]] == ["hv = 1"]
    kc.history(hist_access_type="tail", n=2, output=True)
    r = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    assert r["history"][0][2] == ["hv", "1"]


def test_many_prints_arrive_in_order(kernel):
    km, kc = kernel
    reply, msgs = run(kc, "for i in range(2000) { print(i) }")
    text = stdout_of(msgs)
    assert text.split() == [str(i) for i in range(2000)]


def _peak_kb(km):
    """The kernel process's peak resident memory (VmHWM), in kB."""
    with open(f"/proc/{km.provisioner.process.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


LINE = "x" * 999
PRINT_200MB = f'line = "{LINE}"\nfor i in range(200000) {{ print(line) }}'


def test_output_is_not_kept_without_a_subscriber():
    """200 MB printed with no IOPub subscriber: the kernel does not keep it
    (it held every printed byte: 400 MB printed, 1.45 GB resident)."""
    from jupyter_client.manager import KernelManager

    from conftest import KERNEL

    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel()
    kc = km.client()
    kc.start_channels(iopub=False, stdin=False, hb=False)
    try:
        kc.kernel_info()
        kc.get_shell_msg(timeout=TIMEOUT)
        before = _peak_kb(km)
        msg_id = kc.execute(PRINT_200MB)
        reply = kc.get_shell_msg(timeout=180)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "ok"
        grew = _peak_kb(km) - before
        assert grew < 120_000, f"the kernel's peak memory grew by {grew} kB"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_output_to_a_client_that_does_not_read_iopub(kernel):
    """The client subscribes to IOPub but reads it only after the reply
    (a blocking client): the cell still finishes, the kernel's memory stays
    bounded, and what could not be sent is reported as dropped."""
    km, kc = kernel
    before = _peak_kb(km)
    msg_id = kc.execute(PRINT_200MB)
    reply = kc.get_shell_msg(timeout=180)
    assert reply["content"]["status"] == "ok"
    grew = _peak_kb(km) - before
    assert grew < 120_000, f"the kernel's peak memory grew by {grew} kB"
    msgs = iopub_until_idle(kc, msg_id, timeout=120)
    lines = stdout_of(msgs).split()
    assert all(l == LINE for l in lines)
    err = "".join(
        m["content"]["text"]
        for m in msgs
        if m["msg_type"] == "stream" and m["content"]["name"] == "stderr"
    )
    if "dropped" in err:
        assert len(lines) < 200000
    else:
        assert len(lines) == 200000
    reply, msgs = run(kc, "1 + 1")
    assert result_of(msgs) == "2"
