/* isa/program.c — lifetime and lookups of the decoded program (include/mx/program.h). */
#include "mx/program.h"

#include <stdlib.h>
#include <string.h>

void mx_program_free(struct mx_program *p)
{
    if (!p)
        return;
    free(p->strtab);
    free(p->insns);
    free(p->vec);
    free(p->syms);
    free(p->funcs);
    free(p->regdecls);
    free(p->regbit);
    free(p->labels);
    free(p->relocs);
    free(p->files);
    free(p->data);
    free(p->shared_layout);
    free(p->items);
    free(p->events);
    free(p->source_name);
    free(p->sass_addr);
    memset(p, 0, sizeof *p);
}

int mx_program_find_func(const struct mx_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (!strcmp(mx_str(p, p->funcs[i].name), name))
            return (int)i;
    return -1;
}
