/* include/mx/status.h — the one status enum of Morpheus-emu.
 * Every error a guest program or its input can cause is one of these values,
 * returned up the stack (never an abort).  Add a row to MX_STATUS_LIST to add
 * a status; mx_strstatus() and the CLI exit codes follow from it. */
#ifndef MX_STATUS_H
#define MX_STATUS_H

/* X(name, short description) — value is the row index. */
#define MX_STATUS_LIST(X)                                                    \
    X(OK, "success")                                                         \
    X(ENOMEM, "out of host memory")                                          \
    X(EIO, "input/output error")                                             \
    X(EINVAL, "invalid argument")                                            \
    X(EPARSE, "PTX syntax or validation error")                              \
    X(EUNSUPPORTED, "unsupported feature")                                   \
    X(ELIMIT, "resource limit exceeded")                                     \
    X(ENOTFOUND, "not found")                                                \
    X(ELAUNCH, "invalid launch configuration")                               \
    X(EILLEGAL, "illegal instruction")                                       \
    X(EREGINDEX, "register index out of range")                              \
    X(EMEMFAULT, "illegal memory access")                                    \
    X(EMISALIGNED, "misaligned address")                                     \
    X(ETRAP, "trap instruction executed")                                    \
    X(EASSERT, "device-side assert triggered")                               \
    X(EDEADLOCK, "deadlock")                                                 \
    X(EWATCHDOG, "watchdog: kernel ran past its limit")                      \
    X(ESTACK, "call stack overflow")                                         \
    X(EHOSTCALL, "device-to-host call failed")                               \
    X(EABORTED, "stopped by a fault in another kernel")                      \
    X(EXLLC, "extended-LLC helper check failed")

enum mx_status {
#define X(name, desc) MX_##name,
    MX_STATUS_LIST(X)
#undef X
    MX_STATUS__COUNT
};

static inline const char *mx_strstatus(int s)
{
    static const char *const text[] = {
#define X(name, desc) desc,
        MX_STATUS_LIST(X)
#undef X
    };
    if (s < 0 || s >= MX_STATUS__COUNT)
        return "unknown status";
    return text[s];
}

static inline const char *mx_status_name(int s)
{
    static const char *const text[] = {
#define X(name, desc) "MX_" #name,
        MX_STATUS_LIST(X)
#undef X
    };
    if (s < 0 || s >= MX_STATUS__COUNT)
        return "MX_?";
    return text[s];
}

#endif
