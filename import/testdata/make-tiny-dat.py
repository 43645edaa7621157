#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes tiny.dat, a trace-cmd (file version 6) capture made by hand.

This machine has no tracefs to record from, so the .dat reader is tested
on a file built here from the format trace-cmd documents
(trace-cmd.dat.v6(5)): the headers, the event formats as the kernel
prints them in events/*/format, a two-symbol kallsyms, and one ring-buffer
page per CPU segment.  `trace-cmd report -i tiny.dat` reads it; the
expected import is derived in import/test-capture-dat.c.

Run from this directory: python3 make-tiny-dat.py
"""
import struct

PAGE = 4096
T0 = 5_000_000_000              # 5 s on the trace clock (mono)
TIMER = 0xffff888000001000      # the hrtimer's address
WAKEUP_FN = 0xffffffff81100000  # hrtimer_wakeup in the kallsyms below
EXIT = 0xffffffff               # cpu_idle's state on exit
J0 = 4294900000                 # jiffies at T0
WHEEL = 0xffff888000002000      # timer-wheel timers from here, 0x100 apart
TIMEOUT_FN = 0xffffffff81100800 # process_timeout in the kallsyms below
RCU_NAME = 0xffffffff82000000   # "rcu_preempt", in the printk formats below
RCU_HEAD = 0xffff888000003000   # an rcu_head
FREE_FN = 0xffffffff81100600    # file_free_rcu in the kallsyms below


def wheel_flags(cpu, idx, deferrable=False):
    """struct timer_list's flags: the base's CPU, the wheel index, TIMER_DEFERRABLE."""
    return cpu | (0x80000 if deferrable else 0) | (idx << 22)

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")

# system, name, id, [(C type, name, size, signed)], print fmt, struct layout
EVENTS = [
    ("power", "cpu_idle", 1, [("u32", "state", 4, 0), ("u32", "cpu_id", 4, 0)],
     '"state=%lu cpu_id=%lu", (unsigned long)REC->state, (unsigned long)REC->cpu_id', "II"),
    ("power", "cpu_idle_miss", 2,
     [("u32", "cpu_id", 4, 0), ("u32", "state", 4, 0), ("bool", "below", 1, 0)],
     '"cpu_id=%lu state=%lu type=%s", (unsigned long)REC->cpu_id, '
     '(unsigned long)REC->state, (REC->below)?"below":"above"', "IIB"),
    ("timer", "hrtimer_start", 3,
     [("void *", "hrtimer", 8, 0), ("void *", "function", 8, 0), ("s64", "expires", 8, 1),
      ("s64", "softexpires", 8, 1), ("int", "mode", 4, 1)],
     '"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%d", REC->hrtimer, '
     'REC->function, (unsigned long long) REC->expires, '
     '(unsigned long long) REC->softexpires, REC->mode', "QQqqi"),
    ("timer", "hrtimer_cancel", 4, [("void *", "hrtimer", 8, 0)],
     '"hrtimer=%p", REC->hrtimer', "Q"),
    ("timer", "hrtimer_expire_entry", 5,
     [("void *", "hrtimer", 8, 0), ("s64", "now", 8, 1), ("void *", "function", 8, 0)],
     '"hrtimer=%p function=%ps now=%llu", REC->hrtimer, REC->function, '
     '(unsigned long long) REC->now', "QqQ"),
    ("timer", "tick_stop", 6, [("int", "success", 4, 1), ("int", "dependency", 4, 1)],
     '"success=%d dependency=%d", REC->success, REC->dependency', "ii"),
    ("irq", "irq_handler_entry", 7, [("int", "irq", 4, 1)], '"irq=%d", REC->irq', "i"),
    ("timer", "timer_start", 8,
     [("void *", "timer", 8, 0), ("void *", "function", 8, 0), ("unsigned long", "expires", 8, 0),
      ("unsigned long", "now", 8, 0), ("unsigned int", "flags", 4, 0)],
     '"timer=%p function=%ps expires=%lu [timeout=%ld] cpu=%u idx=%u flags=%s", REC->timer, '
     'REC->function, REC->expires, (long)REC->expires - REC->now, REC->flags & 0x0003FFFF, '
     'REC->flags >> 22, __print_flags(REC->flags & (0x00040000 | 0x00080000 | 0x00100000 | '
     '0x00200000), "|", { 0x00040000, "M" }, { 0x00080000, "D" }, { 0x00100000, "P" }, '
     '{ 0x00200000, "I" })', "QQQQI"),
    ("timer", "timer_cancel", 9, [("void *", "timer", 8, 0)], '"timer=%p", REC->timer', "Q"),
    ("timer", "timer_expire_entry", 10,
     [("void *", "timer", 8, 0), ("unsigned long", "now", 8, 0), ("void *", "function", 8, 0),
      ("unsigned long", "baseclk", 8, 0)],
     '"timer=%p function=%ps now=%lu baseclk=%lu", REC->timer, REC->function, REC->now, '
     'REC->baseclk', "QQQQ"),
    ("rcu", "rcu_callback", 11,
     [("const char *", "rcuname", 8, 0), ("void *", "rhp", 8, 0), ("void *", "func", 8, 0),
      ("long", "qlen", 8, 1)],
     '"%s rhp=%p func=%ps %ld", REC->rcuname, REC->rhp, REC->func, REC->qlen', "QQQq"),
    ("rcu", "rcu_batch_start", 12,
     [("const char *", "rcuname", 8, 0), ("long", "qlen", 8, 1), ("long", "blimit", 8, 1)],
     '"%s CBs=%ld bl=%ld", REC->rcuname, REC->qlen, REC->blimit', "Qqq"),
    ("rcu", "rcu_batch_end", 13,
     [("const char *", "rcuname", 8, 0), ("int", "callbacks_invoked", 4, 1),
      ("char", "cb", 1, 1), ("char", "nr", 1, 1), ("char", "iit", 1, 1), ("char", "risk", 1, 1)],
     '"%s CBs-invoked=%d idle=%c%c%c%c", REC->rcuname, REC->callbacks_invoked, '
     'REC->cb ? \'C\' : \'.\', REC->nr ? \'S\' : \'.\', REC->iit ? \'I\' : \'.\', '
     'REC->risk ? \'R\' : \'.\'', "Qibbbb"),    # Layouts are lists where a field takes more than one struct code.
    ("sched", "sched_switch", 14,
     [("char", "prev_comm[16]", 16, 0), ("pid_t", "prev_pid", 4, 1), ("int", "prev_prio", 4, 1),
      ("long", "prev_state", 8, 1), ("char", "next_comm[16]", 16, 0), ("pid_t", "next_pid", 4, 1),
      ("int", "next_prio", 4, 1)],
     '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d '
     'next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & 0xff) ? '
     '"S" : "R", "", REC->next_comm, REC->next_pid, REC->next_prio',
     ["16s", "i", "i", "q", "16s", "i", "i"]),
]
BY_NAME = {e[1]: e for e in EVENTS}


def event_format(system, name, ident, fields, fmt, layout):
    text = f"name: {name}\nID: {ident}\nformat:\n" + COMMON
    offset = 8
    for ctype, fname, size, signed in fields:
        # Fields are naturally aligned, as the kernel's structs are.
        offset = (offset + size - 1) // size * size
        text += f"\tfield:{ctype} {fname};\toffset:{offset};\tsize:{size};\tsigned:{signed};\n"
        offset += size
    return text + f"\nprint fmt: {fmt}\n"


def payload(name, *values):
    _, _, ident, fields, _, layout = BY_NAME[name]
    body = b""
    for (ctype, fname, size, signed), code, v in zip(fields, layout, values):
        body += b"\0" * (-(8 + len(body)) % size) + struct.pack("<" + code, v)
    data = struct.pack("<HBBi", ident, 0, 1, 0) + body
    return data + b"\0" * (-len(data) % 4)


def page(records, missed=False):
    """One ring-buffer page: u64 time stamp, u64 commit, then the events."""
    data = b""
    last = records[0][0]
    for ts, body in records:
        delta = ts - last
        assert delta < (1 << 27), "keep deltas small: no time-extend records here"
        data += struct.pack("<I", (delta << 5) | (len(body) // 4)) + body
        last = ts
    # Bit 31 of commit: events were lost before this page (RB_MISSED_EVENTS).
    commit = len(data) | ((1 << 31) if missed else 0)
    raw = struct.pack("<QQ", records[0][0], commit) + data
    return raw + b"\0" * (PAGE - len(raw))


def sized(text, width):
    b = text.encode()
    return struct.pack("<" + width, len(b)) + b


def main():
    cpu0 = [page([
        (T0, payload("hrtimer_start", TIMER, WAKEUP_FN, T0 + 1_000_000, T0 + 950_000, 0)),
        (T0 + 1_000, payload("timer_start", WHEEL, TIMEOUT_FN, J0 + 3, J0, wheel_flags(0, 4))),
        (T0 + 2_000, payload("timer_start", WHEEL + 0x100, TIMEOUT_FN, J0 + 100, J0,
                             wheel_flags(1, 76))),
        (T0 + 3_000, payload("timer_start", WHEEL + 0x200, TIMEOUT_FN, J0 + 100, J0,
                             wheel_flags(0, 76, deferrable=True))),
        (T0 + 4_000, payload("timer_start", WHEEL + 0x300, TIMEOUT_FN, J0 + 50, J0,
                             wheel_flags(1, 70))),
        (T0 + 5_000, payload("timer_cancel", WHEEL + 0x300)),
        (T0 + 10_000, payload("cpu_idle", 2, 0)),
        (T0 + 1_005_000, payload("cpu_idle", EXIT, 0)),
        (T0 + 1_006_000, payload("hrtimer_cancel", TIMER)),
        (T0 + 1_006_000, payload("hrtimer_expire_entry", TIMER, T0 + 1_006_000, WAKEUP_FN)),
        (T0 + 1_007_000, payload("sched_switch", b"swapper/0", 0, 120, 0, b"sshd", 812, 120)),
        (T0 + 1_100_000, payload("rcu_callback", RCU_NAME, RCU_HEAD, FREE_FN, 1)),
        (T0 + 1_200_000, payload("sched_switch", b"sshd", 812, 120, 2, b"swapper/0", 0, 120)),
        (T0 + 1_206_000, payload("cpu_idle", 2, 0)),
    ])]
    cpu1 = [page([(T0 + 100_000, payload("cpu_idle", 1, 1))]),
            page([
                (T0 + 900_000, payload("cpu_idle", EXIT, 1)),
                (T0 + 900_200, payload("cpu_idle_miss", 1, 1, 1)),
                (T0 + 900_500, payload("irq_handler_entry", 24)),
                (T0 + 1_000_000, payload("cpu_idle", 1, 1)),
                (T0 + 1_100_000, payload("tick_stop", 1, 0)),
                (T0 + 1_100_010, payload("timer_expire_entry", WHEEL + 0x400, J0, TIMEOUT_FN, J0)),
                (T0 + 1_101_000, payload("rcu_batch_start", RCU_NAME, 2, 10)),
                (T0 + 1_102_000, payload("rcu_batch_end", RCU_NAME, 2, 0, 0, 0, 0)),
            ], missed=True)]

    out = b"\x17\x08\x44tracing" + b"6\0" + bytes([0, 8]) + struct.pack("<I", PAGE)
    out += b"header_page\0" + sized(
        "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
        "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
        "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n", "Q")
    out += b"header_event\0" + sized(
        "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
        "\tarray       :   32 bits\n\n\tpadding     : type == 29\n"
        "\ttime_extend : type == 30\n\ttime_stamp : type == 31\n"
        "\tdata max type_len  == 28\n", "Q")
    out += struct.pack("<I", 0)                        # no ftrace (function tracer) formats
    systems = {}
    for e in EVENTS:
        systems.setdefault(e[0], []).append(event_format(*e))
    out += struct.pack("<I", len(systems))
    for system, formats in systems.items():
        out += system.encode() + b"\0" + struct.pack("<I", len(formats))
        for f in formats:
            out += sized(f, "Q")
    out += sized(f"{WAKEUP_FN:016x} T hrtimer_wakeup\n"
                 "ffffffff81100400 T tick_sched_timer\n"
                 f"{FREE_FN:016x} T file_free_rcu\n"
                 f"{TIMEOUT_FN:016x} T process_timeout\n", "I")
    # The constant strings that RCU's events point to.
    out += sized(f"0x{RCU_NAME:x} : \"rcu_preempt\"\n", "I")
    out += sized("0 <idle>\n", "Q")                    # cmdlines
    out += struct.pack("<I", 2)                        # CPUs
    out += b"options  \0" + struct.pack("<H", 0)       # no options
    out += b"flyrecord\0"
    table_at = len(out)
    data_at = (table_at + 2 * 16 + PAGE - 1) // PAGE * PAGE
    table = b""
    blobs = b""
    for pages in (cpu0, cpu1):
        blob = b"".join(pages)
        table += struct.pack("<QQ", data_at + len(blobs), len(blob))
        blobs += blob
    out += table + b"\0" * (data_at - table_at - len(table)) + blobs
    with open("tiny.dat", "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
