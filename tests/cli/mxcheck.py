"""tests/cli/mxcheck.py — the checks of the command-line tests written in
Python: check() prints "ok   NAME" or "FAIL NAME" with the details, done()
prints the count and exits 1 if any failed."""
import sys

checks = failed = 0


def check(name, cond, *detail, width=2000):
    global checks, failed
    checks += 1
    if cond:
        print('ok   ' + name)
    else:
        failed += 1
        print('FAIL ' + name)
        for d in detail:
            print('     ' + str(d)[:width])
    return bool(cond)


def done():
    print('%d checks, %d failed' % (checks, failed))
    sys.exit(1 if failed else 0)
