/* tests/cuda/mx_capture.h — what a runtime call writes on stderr, for the
 * tests that check the emulator's `morpheus:` messages: mx_capture_begin()
 * sends stderr to a temporary file, mx_capture_end() restores it, passes
 * the text on (so it shows in the test log) and returns it.  Include after
 * mx_check.h. */
#ifndef MX_CAPTURE_H
#define MX_CAPTURE_H

#include <unistd.h>

static char mx_captured[8192];
static FILE *mx_capture_tmp;
static int mx_capture_saved = -1;

static void mx_capture_begin(void)
{
    fflush(stderr);
    mx_capture_tmp = tmpfile();
    EXPECT(mx_capture_tmp, "tmpfile() failed");
    mx_capture_saved = dup(2);
    EXPECT(mx_capture_saved >= 0 && dup2(fileno(mx_capture_tmp), 2) >= 0, "cannot redirect stderr");
}

static const char *mx_capture_end(void)
{
    fflush(stderr);
    dup2(mx_capture_saved, 2);
    close(mx_capture_saved);
    rewind(mx_capture_tmp);
    size_t n = fread(mx_captured, 1, sizeof mx_captured - 1, mx_capture_tmp);
    mx_captured[n] = 0;
    fclose(mx_capture_tmp);
    fputs(mx_captured, stderr);
    return mx_captured;
}

#endif
