/* timing/timing.c — registry of timing models (include/mx/timing.h).
 * Registration is rare and slow-path; lookups are by name at start-up. */
#include "mx/timing.h"

#include <pthread.h>
#include <string.h>

#define TM_MAX_MODELS 32

static const struct tm_ops *models[TM_MAX_MODELS];
static unsigned nmodels;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int tm_register(const struct tm_ops *ops)
{
    if (!ops || !ops->name || !*ops->name || ops->version != TM_API_VERSION)
        return -1;
    pthread_mutex_lock(&lock);
    int rc = 0;
    for (unsigned i = 0; i < nmodels; i++)
        if (!strcmp(models[i]->name, ops->name))
            rc = -1;
    if (!rc && nmodels == TM_MAX_MODELS)
        rc = -1;
    if (!rc)
        models[nmodels++] = ops;
    pthread_mutex_unlock(&lock);
    return rc;
}

const struct tm_ops *tm_find(const char *name)
{
    const struct tm_ops *r = NULL;
    pthread_mutex_lock(&lock);
    for (unsigned i = 0; i < nmodels && name; i++)
        if (!strcmp(models[i]->name, name))
            r = models[i];
    pthread_mutex_unlock(&lock);
    return r;
}

void tm_foreach(void (*fn)(const struct tm_ops *, void *), void *arg)
{
    pthread_mutex_lock(&lock);
    unsigned n = nmodels;
    const struct tm_ops *copy[TM_MAX_MODELS];
    memcpy(copy, models, n * sizeof *copy);
    pthread_mutex_unlock(&lock);
    for (unsigned i = 0; i < n; i++)
        fn(copy[i], arg);
}

extern const struct tm_ops tm_none_ops;

static void builtin(void) { tm_register(&tm_none_ops); }

void tm_register_builtin(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, builtin);
}
