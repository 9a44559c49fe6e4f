/* timing/timing.c — registry of timing models (include/mx/timing.h).
 * Registration is rare and slow-path; lookups are by name at start-up. */
#include "mx/timing.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
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

extern const struct tm_ops tm_none_ops, tm_latency_ops, tm_cycle_ops;

static void builtin(void)
{
    tm_register(&tm_none_ops);
    tm_register(&tm_latency_ops);
    tm_register(&tm_cycle_ops);
}

void tm_register_builtin(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, builtin);
}

const struct tm_ops *tm_resolve(const char *spec, char *err, size_t errlen)
{
    tm_register_builtin();
    if (!spec || !*spec)
        spec = "none";
    if (!strchr(spec, '/')) {
        const struct tm_ops *o = tm_find(spec);
        if (!o) {
            char names[256] = "";
            size_t n = 0;
            pthread_mutex_lock(&lock);
            for (unsigned i = 0; i < nmodels; i++)
                n += (size_t)snprintf(names + n, n < sizeof names ? sizeof names - n : 0, "%s%s", i ? ", " : "",
                                      models[i]->name);
            pthread_mutex_unlock(&lock);
            snprintf(err, errlen, "no timing model named '%s' (models: %s; or a path to a .so)", spec, names);
        }
        return o;
    }
    /* a shared object: it stays loaded for the life of the process */
    void *h = dlopen(spec, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "cannot load timing model %s: %s", spec, dlerror());
        return NULL;
    }
    const struct tm_ops *o = dlsym(h, "mx_timing_model");
    if (!o) {
        snprintf(err, errlen, "%s is not a timing model: it exports no 'mx_timing_model' (docs/timing.md)", spec);
        dlclose(h);
        return NULL;
    }
    if (o->version != TM_API_VERSION) {
        snprintf(err, errlen, "timing model %s (%s) was built for timing API version %u; this emulator speaks version "
                 "%u: rebuild it against include/mx/timing.h", spec, o->name ? o->name : "unnamed", o->version,
                 TM_API_VERSION);
        dlclose(h);
        return NULL;
    }
    const struct tm_ops *prev = o->name ? tm_find(o->name) : NULL;
    if (prev == o)
        return o; /* loaded before */
    if (tm_register(o)) {
        snprintf(err, errlen, "timing model %s: %s", spec,
                 !o->name || !*o->name ? "it has no name" : "a model of that name is already registered");
        dlclose(h);
        return NULL;
    }
    return o;
}
