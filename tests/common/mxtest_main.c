/* tests/common/mxtest_main.c — main() of every test program whose cases
 * register themselves with MX_TEST(). */
#include "mxtest.h"

int main(int argc, char **argv)
{
    return mxt_run(argc, argv) ? 1 : 0;
}
