"""The agent's system-call filter: a classic BPF program bubblewrap loads with `--seccomp`.

Namespaces and dropped capabilities leave a few kernel doors open to a process that is
root on the host: it may create a user namespace (and gain every capability inside
it), ptrace the sandbox's init or its own helpers, and keep data in the kernel keyring,
which outlives the episode and is shared with the next one. The filter closes them:
those calls fail with EPERM, `clone3` fails with ENOSYS (its flags lie in memory a
filter cannot read, and C libraries then fall back to `clone`, whose flags it can), and
a call of another architecture's ABI (x32, or 32-bit x86 through `int 0x80`) ends the
process, since its numbers mean other calls.

The program is assembled here rather than with libseccomp because it is a few dozen
fixed instructions, and a Python binding of libseccomp is a Debian package (not on PyPI)
that CI and every operator would have to install. `filter_bytes()` returns None on an
architecture whose call numbers are not listed; the record then says no filter applied.
"""

from __future__ import annotations

import errno
import platform
import struct

# Linux x86_64 call numbers (asm/unistd_64.h). Denied outright: the keyring, ptrace and
# what reads or writes another process's memory, entering namespaces, memory that no
# limit would count, and calls that
# need capabilities the agent lacks anyway (kept out so a kernel bug in them is too).
X86_64_DENIED = {
    "ptrace": 101, "syslog": 103, "vhangup": 153, "pivot_root": 155, "adjtimex": 159,
    "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "iopl": 172, "ioperm": 173,
    "init_module": 175, "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212,
    "clock_settime": 227, "kexec_load": 246, "add_key": 248, "request_key": 249,
    "keyctl": 250, "perf_event_open": 298, "fanotify_init": 300, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "pidfd_getfd": 438, "mount_setattr": 442,
    # Memory no warden sees: a memfd written to and never mapped, a System V segment
    # touched and detached (neither is resident in any process nor a counted tmpfs).
    "shmget": 29, "memfd_create": 319,
}
X86_64_CLONE, X86_64_UNSHARE, X86_64_CLONE3 = 56, 272, 435
AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
# CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
# CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET: any new namespace.
NAMESPACE_FLAGS = 0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 \
    | 0x20000000 | 0x40000000

# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
LD_W_ABS = 0x20
JEQ_K, JGE_K, JSET_K = 0x15, 0x35, 0x45
RET_K = 0x06
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
RET_KILL_PROCESS = 0x80000000
# Offsets in struct seccomp_data: nr, arch, then args[6] as 64-bit values (low half first).
NR, ARCH, ARG0_LOW = 0, 4, 16

Instruction = tuple[int, "int | str", "int | str", int]


def assemble(program: list[Instruction | str]) -> bytes:
    """Classic BPF bytes from instructions whose jump targets may be label names.

    A plain string in the list is a label for the next instruction. A jump target is
    a label or a relative count; relative targets must fit in a byte, as in the kernel.

    Raises:
        ValueError: An unknown label or a jump too far.
    """
    labels: dict[str, int] = {}
    code: list[Instruction] = []
    for item in program:
        if isinstance(item, str):
            labels[item] = len(code)
        else:
            code.append(item)
    out = b""
    for pc, (op, jt, jf, k) in enumerate(code):
        offsets = []
        for target in (jt, jf):
            if isinstance(target, str):
                if target not in labels:
                    raise ValueError(f"unknown label {target!r}")
                target = labels[target] - pc - 1
            if not 0 <= target <= 255:
                raise ValueError(f"jump of {target} at instruction {pc} does not fit a byte")
            offsets.append(target)
        out += struct.pack("=HBBI", op, offsets[0], offsets[1], k)
    return out


def x86_64_program() -> list[Instruction | str]:
    """The filter for x86_64, as instructions with labels."""
    program: list[Instruction | str] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 0, "kill", AUDIT_ARCH_X86_64),
        (LD_W_ABS, 0, 0, NR),
        (JGE_K, "kill", 0, X32_SYSCALL_BIT),
        (JEQ_K, "enosys", 0, X86_64_CLONE3),
        (JEQ_K, "flags", 0, X86_64_CLONE),
        (JEQ_K, "flags", 0, X86_64_UNSHARE),
    ]
    program += [(JEQ_K, "eperm", 0, nr) for nr in sorted(X86_64_DENIED.values())]
    program += [
        (RET_K, 0, 0, RET_ALLOW),
        "flags",
        (LD_W_ABS, 0, 0, ARG0_LOW),
        (JSET_K, "eperm", 0, NAMESPACE_FLAGS),
        (RET_K, 0, 0, RET_ALLOW),
        "eperm",
        (RET_K, 0, 0, RET_ERRNO | errno.EPERM),
        "enosys",
        (RET_K, 0, 0, RET_ERRNO | errno.ENOSYS),
        "kill",
        (RET_K, 0, 0, RET_KILL_PROCESS),
    ]
    return program


def filter_bytes(machine: str | None = None) -> bytes | None:
    """The filter for this machine's architecture, or None where none is written."""
    if (machine or platform.machine()) != "x86_64":
        return None
    return assemble(x86_64_program())
